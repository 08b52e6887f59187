/**
 * `npm run bench campaign-page`: issue 30.2's campaign page. A rating campaign of 2,000 items × 30
 * annotators × 2 labels an item (three quarters labelled) with 15 judge runs rating every item, on
 * `next start`, signed in as a researcher. Once the background agreement report is current, the page is
 * fetched BENCH_N times (after warm-up) interleaved with GET /api/me (the same auth and database round
 * trip, no data work): p50/p95 and the HTML's size. Targets: ≤ 300 ms and ≤ 1.5 MB.
 * BENCH_APP_ROOT measures another checkout's build (e.g. the code before a change) on the same data.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { openDb } from "@/db/client";
import { seedRatingCampaign } from "@/test/big-campaign";
import { freePort, waitForHttp } from "../test/local-server";
import { ensureBuild } from "./app-build";
import { pct, signIn, type Jar } from "./http-session";

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
const N = Number(process.env.BENCH_N ?? 10);
const PASSWORD = "bench-password-1";

async function timed(url: string, jar: Jar): Promise<{ ms: number; bytes: number; html: string; status: number }> {
  const t0 = performance.now();
  const r = await fetch(url, { headers: { cookie: jar.header() } });
  const html = await r.text();
  return { ms: performance.now() - t0, bytes: Buffer.byteLength(html), html, status: r.status };
}

export default async function bench() {
  const appRoot = process.env.BENCH_APP_ROOT ?? ROOT;
  if (!process.env.BENCH_APP_ROOT) ensureBuild(ROOT);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pal-bench-campaign-page-"));
  const dbPath = path.join(dir, "bench.db");
  const db = openDb(dbPath);
  const seeded = await seedRatingCampaign(db, {
    items: 2000,
    annotators: 30,
    perItem: 2,
    labelledShare: 0.75,
    researchers: 1,
    password: PASSWORD,
    judgeRuns: 15,
  });
  db.$client.close();
  const port = await freePort();
  const base = `http://localhost:${port}`;
  let out = "";
  const server = spawn(process.execPath, [path.join(appRoot, "node_modules/next/dist/bin/next"), "start", "-p", String(port)], {
    cwd: appRoot,
    env: {
      ...process.env,
      PAL_DB: dbPath,
      PAL_SERVER_WORKER: "0",
      NEXTAUTH_SECRET: "bench-secret",
      NEXTAUTH_URL: base,
      NODE_ENV: "production",
    },
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  server.stdout!.on("data", (d) => (out += d));
  server.stderr!.on("data", (d) => (out += d));
  try {
    await waitForHttp(`${base}/login`, server, () => out);
    const jar = await signIn(base, seeded.researchers[0], PASSWORD);
    const page = `${base}/campaigns/${seeded.campaignId}`;
    // The report is computed in the background after the first view: wait until the page says it is current.
    const t0 = Date.now();
    let first = await timed(page, jar);
    const firstMs = first.ms;
    while (!/data-state="current"/.test(first.html) && Date.now() - t0 < 300_000) {
      await new Promise((r) => setTimeout(r, 1000));
      first = await timed(page, jar);
    }
    const pages: number[] = [];
    const me: number[] = [];
    let bytes = 0;
    for (let i = 0; i < 3 + N; i++) {
      const p = await timed(page, jar);
      const m = await timed(`${base}/api/me`, jar);
      if (p.status !== 200) throw new Error(`the campaign page answered ${p.status}`);
      if (i >= 3) {
        pages.push(p.ms);
        me.push(m.ms);
        bytes = p.bytes;
      }
    }
    const links = (first.html.match(/href="\/campaigns\/\d+\/items\/\d+/g) ?? []).length;
    console.log(
      `rating campaign: 2,000 items × 30 annotators × 2 labels (${seeded.labelled} labelled), 15 judge runs; load average ${os.loadavg()[0].toFixed(1)} on ${os.cpus().length} cores`,
    );
    console.log(`  first view (report not yet computed)  ${firstMs.toFixed(0).padStart(6)} ms`);
    console.log(`  report current after                  ${((Date.now() - t0) / 1000).toFixed(1).padStart(6)} s`);
    console.log(
      `  campaign page, report current         p50 ${pct(pages, 50).toFixed(0).padStart(5)} ms  p95 ${pct(pages, 95).toFixed(0).padStart(5)} ms  (target ≤ 300 ms)`,
    );
    console.log(
      `  GET /api/me (baseline)                p50 ${pct(me, 50).toFixed(0).padStart(5)} ms  p95 ${pct(me, 95).toFixed(0).padStart(5)} ms`,
    );
    console.log(
      `  page size                             ${(bytes / 1e6).toFixed(2).padStart(6)} MB  ${links} item links  (target ≤ 1.5 MB)`,
    );
  } finally {
    try {
      process.kill(-server.pid!, "SIGTERM");
    } catch {
      // already gone
    }
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
