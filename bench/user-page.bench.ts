/**
 * `npm run bench user-page`: server render time of the PAL-Set user page for a user with 1,000+ logs,
 * with the full-size synthetic PAL-Set loaded (bench/gen-palset.ts, 100 users, ~100k logs).
 *
 * Steps: generate → `pal import palset` into a temp PAL_DB → pick the user with the most logs → build
 * the app if there is no build → `next start` on a free port → sign in as a researcher through
 * next-auth's credentials endpoint → warm up → N timed requests of the user page (full body read)
 * and, interleaved, of a baseline page (GET /api/me: the same auth and DB round trip, no data work).
 * Prints p50/p95 in ms, p95 over the baseline's p95, and whether p95 < 300 ms.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { generatePalset } from "./gen-palset";
import { freePort, waitForHttp } from "../test/local-server";
import { ensureBuild } from "./app-build";
import { pct, signIn, type Jar } from "./http-session";

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
const N = Number(process.env.BENCH_N ?? 50);
const WARMUP = 10;
const USERS = Number(process.env.BENCH_USERS ?? 100);
const TARGET_MS = 300;

function pal(env: NodeJS.ProcessEnv, ...args: string[]): string {
  const r = spawnSync(process.execPath, ["bin/pal.mjs", ...args], { cwd: ROOT, env, encoding: "utf8", maxBuffer: 64 << 20 });
  if (r.status !== 0) throw new Error(`pal ${args.join(" ")} failed: ${r.stderr}`);
  return r.stdout;
}

async function timed(url: string, jar: Jar): Promise<{ ms: number; status: number; bytes: number }> {
  const t0 = performance.now();
  const r = await fetch(url, { headers: { cookie: jar.header() }, redirect: "manual" });
  const body = await r.arrayBuffer();
  return { ms: performance.now() - t0, status: r.status, bytes: body.byteLength };
}

export default async function bench() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pal-bench-user-"));
  const dbPath = path.join(dir, "bench.db");
  const env = { ...process.env, PAL_DB: dbPath, NEXTAUTH_SECRET: "bench-secret-not-for-production" };
  let server: ChildProcess | null = null;
  try {
    // 1. data
    const file = path.join(dir, "palset.json");
    let t = performance.now();
    const gen = generatePalset(file, USERS);
    console.log(
      `generated ${gen.users} users, ${gen.samples} samples, ${gen.logs} logs, ${gen.turns} turns, ${gen.topics} topics (${(gen.bytes / 1e6).toFixed(0)} MB) in ${((performance.now() - t) / 1000).toFixed(1)} s`,
    );
    // The generator gives every user the paper's average (~996 logs). One more user, written the same
    // way, gets half as many logs again (each second log repeated at the same time), so the page is
    // measured for a user with 1,000+ logs while the full set is loaded around it.
    const heavyFile = path.join(dir, `${String(USERS).padStart(4, "0")}.json`);
    generatePalset(heavyFile, 1, 4242);
    const heavy = JSON.parse(fs.readFileSync(heavyFile, "utf8")) as Record<
      string,
      Record<string, Array<{ logs: Array<{ timestamp: string; content: string }> }>>
    >;
    const heavyKey = String(USERS).padStart(4, "0");
    const one = heavy["0000"];
    for (const split of ["history", "query"]) {
      for (const sample of one[split]) {
        sample.logs = sample.logs.flatMap((l, i) => (i % 2 ? [l, { ...l, content: `${l.content}（再次记录）` }] : [l]));
        (sample as unknown as { sample_id: string }).sample_id = (sample as unknown as { sample_id: string }).sample_id.replace(
          /^0000/,
          heavyKey,
        );
      }
    }
    fs.writeFileSync(heavyFile, JSON.stringify({ [heavyKey]: one }, null, 4));
    t = performance.now();
    pal(env, "import", "palset", file, heavyFile, "--name", "bench");
    console.log(`imported in ${((performance.now() - t) / 1000).toFixed(1)} s`);
    fs.rmSync(file);
    fs.rmSync(heavyFile);

    const db = new Database(dbPath, { readonly: true });
    const ds = db.prepare("select id, stats from datasets where name = 'bench'").get() as { id: number; stats: string };
    const st = JSON.parse(ds.stats) as Record<string, number>;
    console.log(`data set loaded: ${st.users} users, ${st.samples} samples, ${st.logs} logs, ${st.turns} turns, ${st.topics} topics`);
    const user = db
      .prepare(
        `select u.user_key as userKey, sum(s.log_count) as logs, count(*) as sessions
         from pal_users u join pal_samples s on s.user_id = u.id where u.dataset_id = ?
         group by u.id order by logs desc limit 1`,
      )
      .get(ds.id) as { userKey: string; logs: number; sessions: number };
    db.close();
    if (user.logs < 1000) throw new Error(`no user with 1,000+ logs (max ${user.logs})`);
    console.log(`user ${user.userKey}: ${user.logs} logs in ${user.sessions} sessions`);

    // 2. app
    ensureBuild(ROOT);
    const email = "bench-researcher@pal.local";
    const password = "bench-password-1";
    pal(env, "user", "add", "--email", email, "--role", "researcher", "--password", password);

    const port = await freePort();
    const base = `http://localhost:${port}`;
    let out = "";
    server = spawn("npx", ["next", "start", "-p", String(port)], {
      cwd: ROOT,
      env: { ...env, NEXTAUTH_URL: base, NODE_ENV: "production" },
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
    });
    server.stdout!.on("data", (d) => (out += d));
    server.stderr!.on("data", (d) => (out += d));
    await waitForHttp(`${base}/login`, server, () => out);

    // 3. sign in (next-auth credentials flow, as e2e/api-client.ts does)
    const jar = await signIn(base, email, password);

    // 4. measure
    const pageUrl = `${base}/datasets/${ds.id}/users/${encodeURIComponent(user.userKey)}`;
    const baseUrl = `${base}/api/me`;
    const first = await timed(pageUrl, jar);
    if (first.status !== 200) throw new Error(`user page answered ${first.status}`);
    for (let i = 0; i < WARMUP; i++) {
      await timed(pageUrl, jar);
      await timed(baseUrl, jar);
    }
    const page: number[] = [];
    const baseline: number[] = [];
    let bytes = 0;
    for (let i = 0; i < N; i++) {
      const a = await timed(pageUrl, jar);
      if (a.status !== 200) throw new Error(`user page answered ${a.status}`);
      page.push(a.ms);
      bytes = a.bytes;
      baseline.push((await timed(baseUrl, jar)).ms);
    }
    const p50 = pct(page, 50);
    const p95 = pct(page, 95);
    const b50 = pct(baseline, 50);
    const b95 = pct(baseline, 95);
    console.log(
      `user page (${(bytes / 1024).toFixed(0)} KB HTML), N=${N}: p50 ${p50.toFixed(1)} ms, p95 ${p95.toFixed(1)} ms (first, cold: ${first.ms.toFixed(0)} ms)`,
    );
    console.log(`baseline GET /api/me, N=${N}: p50 ${b50.toFixed(1)} ms, p95 ${b95.toFixed(1)} ms`);
    console.log(`ratio p95 user page / p95 baseline: ${(p95 / b95).toFixed(2)}x`);
    console.log(`p95 < ${TARGET_MS} ms: ${p95 < TARGET_MS ? "yes" : "NO"}`);
    if (p95 >= TARGET_MS) throw new Error(`user page p95 ${p95.toFixed(0)} ms is not under ${TARGET_MS} ms`);
  } finally {
    if (server?.pid) {
      try {
        process.kill(-server.pid, "SIGTERM");
      } catch {
        /* gone */
      }
    }
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
