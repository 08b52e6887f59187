/**
 * `npm run bench experiment-launch`: does the server keep answering while a large experiment's jobs
 * are created? (issue 14: one 1.44-million-job launch held the request for 40 s and the server for 42 s.)
 *
 * Steps: a temp PAL_DB with a synthetic PAL-Set (bench/gen-palset.ts) and a researcher, the experiment
 * limits raised (Admin → Settings) so one launch may make ~200,000 jobs → build the app if needed →
 * `next start` → sign in → GET /api/me measured idle (the baseline) → POST /api/experiments with the
 * 200k-job config (its latency: only checks and one row) → GET /api/me every 20 ms until the background
 * preparer has created every job → prints the launch latency, the preparation time, and p50/p95/max of
 * /api/me during the preparation against the idle baseline. The model endpoint is a TEST DOUBLE that
 * never answers within the measurement (the worker's jobs only wait on it).
 */
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import http from "node:http";
import { openDb } from "@/db/client";
import { createUser } from "@/lib/users/users";
import { importPalset } from "@/lib/datasets/palset/import";
import { LIMIT_DEFAULTS, setExperimentLimits } from "@/lib/experiments/limits";
import { dryRun } from "@/lib/experiments/dry-run";
import { createExperiment } from "@/lib/experiments/create";
import { freePort, waitForHttp } from "../test/local-server";
import { ensureBuild } from "./app-build";
import { generatePalset } from "./gen-palset";
import { pct, signIn } from "./http-session";

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
const PASSWORD = "bench-password-1";
const TARGET_JOBS = Number(process.env.BENCH_JOBS) || 200_000;
const REPEATS = 20;

export default async function bench() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pal-bench-launch-"));
  const dbPath = path.join(dir, "bench.db");
  let server: ChildProcess | null = null;
  // A model endpoint that accepts connections and never answers: jobs wait, nothing else moves.
  const silent = http.createServer(() => {});
  await new Promise<void>((r) => silent.listen(0, "127.0.0.1", r));
  const modelURL = `http://127.0.0.1:${(silent.address() as { port: number }).port}/v1`;
  try {
    const db = openDb(dbPath);
    const file = path.join(dir, "palset.json");
    generatePalset(file, 10);
    const { datasetId } = await importPalset(db, { paths: [file], name: "bench", lang: "zh" });
    const researcher = { email: "bench-r@pal.local" };
    const userId = (await createUser(db, { email: researcher.email, role: "researcher", password: PASSWORD })).id;
    setExperimentLimits(db, { ...LIMIT_DEFAULTS, maxMethods: 500, maxRepeats: REPEATS, maxJobs: 1_000_000 }, userId);
    const items = dryRun(db, datasetId, { methods: [{ name: "vanilla" }], tasks: ["requirement"] }).total.items;
    const methods = Math.ceil(TARGET_JOBS / (items * REPEATS));
    const config = {
      methods: Array.from({ length: methods }, (_, i) => ({ name: "vanilla", label: `v${i}` })),
      tasks: ["requirement"],
      repeats: REPEATS,
    };
    // What a launch used to do inside the request: create every job at once (here in-process, in the
    // same chunked transactions but without resting: the time the event loop would be held).
    const s0 = performance.now();
    const held = createExperiment(db, { name: "in-process", datasetId, config, createdBy: null });
    const heldMs = performance.now() - s0;
    db.$client.prepare("UPDATE experiments SET status = 'cancelled' WHERE id = ?").run(held.id);
    db.$client.close();

    ensureBuild(ROOT);
    const port = await freePort();
    const base = `http://localhost:${port}`;
    let out = "";
    server = spawn("npx", ["next", "start", "-p", String(port)], {
      cwd: ROOT,
      env: {
        ...process.env,
        PAL_DB: dbPath,
        PAL_PRIVATE_DIR: path.join(dir, "private"),
        NEXTAUTH_SECRET: "bench-secret-not-for-production",
        NEXTAUTH_URL: base,
        NODE_ENV: "production",
        OPENAI_BASE_URL: modelURL,
        OPENAI_API_KEY: "bench",
        PAL_MODEL_ASSISTANT: "bench-assistant",
        PAL_MODEL_JUDGE: "bench-judge",
        PAL_LLM_RETRIES: "0",
      },
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
    });
    server.stdout!.on("data", (d) => (out += d));
    server.stderr!.on("data", (d) => (out += d));
    await waitForHttp(`${base}/login`, server, () => out);
    const jar = await signIn(base, researcher.email, PASSWORD);
    const headers = { cookie: jar.header() };
    const me = async () => {
      const t0 = performance.now();
      const r = await fetch(`${base}/api/me`, { headers });
      await r.arrayBuffer();
      if (!r.ok) throw new Error(`GET /api/me: ${r.status}`);
      return performance.now() - t0;
    };
    for (let i = 0; i < 20; i++) await me(); // warm up
    const idle: number[] = [];
    for (let i = 0; i < 100; i++) idle.push(await me());

    // One estimate first, so the launch below does not pay for loading the route's modules.
    const est = await fetch(`${base}/api/experiments`, {
      method: "POST",
      headers: { ...headers, "content-type": "application/json", origin: base },
      body: JSON.stringify({ datasetId, config, dryRun: true }),
    });
    const estimate = (await est.json()) as { estimate?: { limits: { jobs: number; max: { maxJobs: number } } } };
    if (!estimate.estimate) throw new Error(`estimate: ${est.status}`);

    const t0 = performance.now();
    const launch = await fetch(`${base}/api/experiments`, {
      method: "POST",
      headers: { ...headers, "content-type": "application/json", origin: base },
      body: JSON.stringify({ datasetId, name: "bench 200k", config }),
    });
    const launchMs = performance.now() - t0;
    const body = (await launch.json()) as { experiment?: { id: number; jobs: number }; error?: string };
    if (launch.status !== 201 || !body.experiment) throw new Error(`launch: ${launch.status} ${body.error ?? ""}\n${out}`);
    const { id, jobs } = body.experiment;

    const during: number[] = [];
    let created = 0;
    let status = "preparing";
    while (status === "preparing") {
      during.push(await me());
      if (during.length % 10 === 0) {
        const p = (await (await fetch(`${base}/api/experiments/${id}?only=progress`, { headers })).json()) as {
          progress: { status: string; total: number };
        };
        status = p.progress.status;
        created = p.progress.total;
      }
      await new Promise((r) => setTimeout(r, 20));
    }
    const prepareMs = performance.now() - t0;
    const fmt = (xs: number[]) =>
      `p50 ${pct(xs, 50).toFixed(1)} ms, p95 ${pct(xs, 95).toFixed(1)} ms, max ${Math.max(...xs).toFixed(1)} ms`;
    console.log(
      `launch of ${jobs.toLocaleString("en")} jobs (${methods} methods × ${REPEATS} repeats × ${items} items): POST answered ${launch.status} in ${launchMs.toFixed(0)} ms`,
    );
    console.log(
      `estimate: ${estimate.estimate.limits.jobs.toLocaleString("en")} jobs of max ${estimate.estimate.limits.max.maxJobs.toLocaleString("en")}`,
    );
    console.log(`the same jobs created at once in-process (what the request used to hold the server for): ${(heldMs / 1000).toFixed(1)} s`);
    console.log(
      `jobs created in the background in ${(prepareMs / 1000).toFixed(1)} s (${created.toLocaleString("en")} when it left "preparing": ${status})`,
    );
    console.log(`GET /api/me idle:             ${fmt(idle)} (${idle.length} requests)`);
    console.log(
      `GET /api/me while preparing:  ${fmt(during)} (${during.length} requests) = p95 ${(pct(during, 95) / pct(idle, 95)).toFixed(1)}x idle`,
    );
  } finally {
    if (server?.pid) {
      try {
        process.kill(-server.pid, "SIGTERM");
      } catch {
        /* already gone */
      }
    }
    silent.closeAllConnections();
    silent.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
