/**
 * `npm run bench cli-start`: how long `pal` takes to start. `node bin/pal.mjs --help` and
 * `pal stats --dataset …` (on a small imported PAL-Set) against `node -e 0` in the same run, wall
 * and CPU time (user + sys, less sensitive to other processes on a shared machine), median of 15, the three taking turns.
 * Target: ≤ 0.15 s on an idle machine (issue 15); the ratio to `node -e 0` is the figure to compare
 * across machines. A bundle's first start writes its code cache, so the warm-up runs each command once.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { spawnSync } from "node:child_process";
import { PALSET_MINI_EN } from "@/test/fixtures";

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
const RUNS = 15;

/** One process: wall ms and CPU ms (its own resource usage, reported on exit by a preloaded hook). */
function once(args: string[], env: Record<string, string>): { ms: number; cpuMs: number } {
  const hook = `data:text/javascript,process.on("exit",()=>{const u=process.resourceUsage();process.stderr.write("cpu_us "+(u.userCPUTime+u.systemCPUTime)+"\\n")})`;
  const t = performance.now();
  const r = spawnSync(process.execPath, ["--import", hook, ...args], { cwd: root, env: { ...process.env, ...env }, encoding: "utf8" });
  const ms = performance.now() - t;
  const c = /cpu_us (\d+)/.exec(r.stderr);
  if (r.status !== 0) throw new Error(`${args.join(" ")} exited ${r.status}: ${r.stderr.slice(0, 300)}`);
  return { ms, cpuMs: c ? Number(c[1]) / 1000 : NaN };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** Median wall and CPU of each command over RUNS rounds, the commands taking turns within a round (so a burst of load elsewhere hits them alike). */
function measureAll(commands: string[][], env: Record<string, string>) {
  const runs = commands.map(() => [] as Array<{ ms: number; cpuMs: number }>);
  for (let r = 0; r < RUNS; r++) commands.forEach((args, i) => runs[i].push(once(args, env)));
  return runs.map((rs) => ({ ms: median(rs.map((x) => x.ms)), cpuMs: median(rs.map((x) => x.cpuMs)) }));
}

export default async function main() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pal-cli-start-"));
  const env = { PAL_DB: path.join(dir, "pal.db") };
  try {
    // Warm: the bundle is (re)built and the data set imported before anything is timed.
    const imp = spawnSync(process.execPath, ["bin/pal.mjs", "import", "palset", PALSET_MINI_EN, "--name", "bench"], {
      cwd: root,
      env: { ...process.env, ...env },
      encoding: "utf8",
    });
    if (imp.status !== 0) throw new Error(`import failed: ${imp.stderr}`);
    for (const args of [["--help"], ["stats", "--dataset", "bench"]]) once(["bin/pal.mjs", ...args], env);
    const names = ["node -e 0", "pal --help", "pal stats"];
    const measured = measureAll(
      [
        ["-e", "0"],
        ["bin/pal.mjs", "--help"],
        ["bin/pal.mjs", "stats", "--dataset", "bench"],
      ],
      env,
    );
    const base = measured[0];
    const rows = names.map((n, i) => [n, measured[i]] as const);
    for (const [name, m] of rows) {
      console.log(
        `${name.padEnd(12)} wall ${(m.ms / 1000).toFixed(3)} s (${(m.ms / base.ms).toFixed(2)}x node -e 0)  cpu ${(m.cpuMs / 1000).toFixed(3)} s (${(m.cpuMs / base.cpuMs).toFixed(2)}x)`,
      );
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
