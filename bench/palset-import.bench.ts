/**
 * `npm run bench palset`: the whole `pal import palset` CLI process on a full-size synthetic PAL-Set
 * (bench/gen-palset.ts: 100 users at Mem-PAL Table 1's averages, ~145 MB) against a process that
 * only reads and JSON.parses the same file. Targets: ratio ≤ 3x, peak RSS < 1 GiB.
 *
 * Each side runs 3 times (fresh database each time) and the median counts: the disk's write-back
 * makes single runs noisy. Set PAL_BENCH_RUNS to change the count, PAL_BENCH_FILE to reuse a file.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { spawnSync } from "node:child_process";
import { generatePalset, type GenStats } from "./gen-palset";
import { envNumber, envValue } from "@/lib/config";

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
const hasGnuTime = fs.existsSync("/usr/bin/time");
// Without GNU time, a preloaded module reports the peak RSS on exit (no change to the CLI needed).
const RSS_HOOK = `data:text/javascript,process.on("exit",()=>{const u=process.resourceUsage();process.stderr.write("maxrss_kb "+u.maxRSS+" cpu_us "+(u.userCPUTime+u.systemCPUTime)+"\\n")})`;

/** Wall time, CPU time (user + sys: less sensitive to other processes on a shared machine), peak RSS. */
type Run = { ms: number; cpuMs: number | null; rssKb: number | null; status: number | null; stderr: string };

function run(args: string[], env: Record<string, string> = {}): Run {
  const cmd = hasGnuTime ? "/usr/bin/time" : process.execPath;
  const full = hasGnuTime ? ["-v", process.execPath, ...args] : ["--import", RSS_HOOK, ...args];
  const t = performance.now();
  const r = spawnSync(cmd, full, { cwd: root, env: { ...process.env, ...env }, encoding: "utf8", maxBuffer: 64 << 20 });
  const ms = performance.now() - t;
  const m = hasGnuTime ? /Maximum resident set size \(kbytes\): (\d+)/.exec(r.stderr) : /maxrss_kb (\d+)/.exec(r.stderr);
  let cpuMs: number | null = null;
  if (hasGnuTime) {
    const u = /User time \(seconds\): ([\d.]+)/.exec(r.stderr);
    const s = /System time \(seconds\): ([\d.]+)/.exec(r.stderr);
    if (u && s) cpuMs = (Number(u[1]) + Number(s[1])) * 1000;
  } else {
    const c = /cpu_us (\d+)/.exec(r.stderr);
    if (c) cpuMs = Number(c[1]) / 1000;
  }
  return { ms, cpuMs, rssKb: m ? Number(m[1]) : null, status: r.status, stderr: r.stderr };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

export default async function bench(): Promise<void> {
  const runs = envNumber("PAL_BENCH_RUNS", 3);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pal-bench-palset-"));
  try {
    let file = envValue("PAL_BENCH_FILE");
    let gen: GenStats | null = null;
    if (!file) {
      file = path.join(dir, "input.json");
      const t = performance.now();
      gen = generatePalset(file);
      console.log(`generated ${file} in ${((performance.now() - t) / 1000).toFixed(1)} s`);
      console.log(
        `  ${gen.users} users, ${gen.samples} samples, ${gen.logs} logs, ${gen.turns} turns, ${gen.topics} topics, ${gen.candidates} candidate solutions, ${(gen.bytes / 1e6).toFixed(1)} MB`,
      );
    }

    const parse: Run[] = [];
    const cli: Run[] = [];
    for (let i = 0; i < runs; i++) {
      parse.push(run(["-e", `JSON.parse(require("fs").readFileSync(${JSON.stringify(file)}, "utf8"))`]));
      const db = path.join(dir, `bench-${i}.db`);
      const r = run([path.join(root, "bin/pal.mjs"), "import", "palset", file, "--name", "bench", "--json"], { PAL_DB: db });
      if (r.status !== 0)
        throw new Error(`pal import failed (exit ${r.status}): ${r.stderr.split("\n").filter(Boolean).slice(-3).join(" | ")}`);
      cli.push(r);
      for (const f of fs.readdirSync(dir)) if (f.startsWith(`bench-${i}.db`)) fs.rmSync(path.join(dir, f));
    }

    const base = median(parse.map((r) => r.ms));
    const whole = median(cli.map((r) => r.ms));
    const rss = Math.max(...cli.map((r) => r.rssKb ?? 0));
    const ratio = whole / base;
    const fmt = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
    console.log(`read + JSON.parse only (node -e): ${fmt(base)} wall  [runs: ${parse.map((r) => fmt(r.ms)).join(", ")}]`);
    console.log(`pal import palset (whole CLI):    ${fmt(whole)} wall  [runs: ${cli.map((r) => fmt(r.ms)).join(", ")}]`);
    console.log(`ratio (median wall): ${ratio.toFixed(2)}x (target ≤ 3x) ${ratio <= 3 ? "ok" : "OVER"}`);
    const best = Math.min(...cli.map((r) => r.ms)) / Math.min(...parse.map((r) => r.ms));
    console.log(`ratio (best wall):   ${best.toFixed(2)}x`);
    if (cli.every((r) => r.cpuMs !== null) && parse.every((r) => r.cpuMs !== null)) {
      const cpu = median(cli.map((r) => r.cpuMs!)) / median(parse.map((r) => r.cpuMs!));
      console.log(
        `ratio (median CPU user+sys, ${fmt(median(cli.map((r) => r.cpuMs!)))} vs ${fmt(median(parse.map((r) => r.cpuMs!)))}): ${cpu.toFixed(2)}x`,
      );
    }
    console.log(
      `peak RSS of the CLI: ${rss ? `${(rss / 1024).toFixed(0)} MiB` : "unknown"} (target < 1024 MiB) ${rss && rss < 1 << 20 ? "ok" : rss ? "OVER" : ""}`,
    );
    if (gen)
      console.log(
        `throughput: ${((gen.logs + gen.turns + gen.topics + gen.candidates + gen.samples) / (whole / 1000) / 1000).toFixed(0)}k rows/s`,
      );
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
