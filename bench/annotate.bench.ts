/**
 * `npm run bench annotate`: 20 annotators submitting 1,000 labels at once over HTTP to `next start`.
 *
 * Steps: a temp PAL_DB with 20 annotators and a pairwise campaign of 500 items × k = 2 (1,000
 * assignments, 50 per annotator) → build the app if there is no build → `next start` on a free port →
 * every annotator signs in (next-auth credentials) → 20 concurrent loops submit their 50 items
 * (each submission sent twice, the second a retry with the same submission id, as after a lost
 * response) → checks that every label is stored exactly once and no request failed (no SQLITE_BUSY),
 * and prints p50/p95 submit latency against the p95 of GET /api/me measured under the same load.
 */
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { openDb } from "@/db/client";
import { createUser } from "@/lib/users/users";
import { createCampaign } from "@/lib/annotation/campaigns";
import { freePort, waitForHttp } from "../test/local-server";
import { ensureBuild } from "./app-build";
import { pct, signIn, type Jar } from "./http-session";
import { pairwiseItemLines } from "./pairwise-items";

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
const ANNOTATORS = 20;
const ITEMS = 500;
const K = 2;
const PASSWORD = "bench-password-1";

export default async function bench() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pal-bench-annotate-"));
  const dbPath = path.join(dir, "bench.db");
  let server: ChildProcess | null = null;
  try {
    const db = openDb(dbPath);
    const researcher = (await createUser(db, { email: "bench-r@pal.local", role: "researcher", password: PASSWORD })).id;
    const annotators: Array<{ id: number; email: string }> = [];
    for (let i = 0; i < ANNOTATORS; i++) {
      const email = `bench-a${i}@pal.local`;
      annotators.push({ id: (await createUser(db, { email, role: "annotator", password: PASSWORD })).id, email });
    }
    const lines = pairwiseItemLines(ITEMS);
    const c = createCampaign(
      db,
      {
        name: "bench",
        kind: "pairwise-dialogue",
        perItem: K,
        annotatorIds: annotators.map((a) => a.id),
        source: { kind: "upload", fileName: "bench.jsonl", text: lines.join("\n") },
      },
      researcher,
    );
    const work = new Map(
      annotators.map((a) => [
        a.id,
        (db.$client.prepare("select id from assignments where annotator_id = ? order by position").all(a.id) as Array<{ id: number }>).map(
          (r) => r.id,
        ),
      ]),
    );
    db.$client.close();
    console.log(`campaign: ${c.items} items × k=${K} = ${c.assignments} assignments over ${ANNOTATORS} annotators`);

    ensureBuild(ROOT);
    const port = await freePort();
    const base = `http://localhost:${port}`;
    let out = "";
    server = spawn("npx", ["next", "start", "-p", String(port)], {
      cwd: ROOT,
      env: {
        ...process.env,
        PAL_DB: dbPath,
        NEXTAUTH_SECRET: "bench-secret-not-for-production",
        NEXTAUTH_URL: base,
        NODE_ENV: "production",
      },
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
    });
    server.stdout!.on("data", (d) => (out += d));
    server.stderr!.on("data", (d) => (out += d));
    await waitForHttp(`${base}/login`, server, () => out);
    const jars = await Promise.all(annotators.map((a) => signIn(base, a.email, PASSWORD)));

    const submitMs: number[] = [];
    const baselineMs: number[] = [];
    let failures = 0;
    let duplicatesSeen = 0;
    const post = async (jar: Jar, id: number, submissionId: string) => {
      const t0 = performance.now();
      const r = await fetch(`${base}/api/assignments/${id}`, {
        method: "POST",
        headers: { "content-type": "application/json", cookie: jar.header(), origin: base }, // the CSRF guard wants the app's own origin
        body: JSON.stringify({ action: "submit", submissionId, values: { requirement: "Win", preference: "Tie" }, ms: 1000 }),
      });
      const body = (await r.json().catch(() => ({}))) as { duplicate?: boolean; error?: string };
      submitMs.push(performance.now() - t0);
      if (!r.ok) {
        failures++;
        console.error(`submit ${id}: ${r.status} ${body.error ?? ""}`);
      }
      if (body.duplicate) duplicatesSeen++;
    };
    const t0 = performance.now();
    await Promise.all(
      annotators.map(async (a, i) => {
        for (const id of work.get(a.id)!) {
          const sid = `bench-${a.id}-${id}-submission`;
          await post(jars[i], id, sid);
          await post(jars[i], id, sid); // the retry
          if (id % 10 === 0) {
            const b0 = performance.now();
            await fetch(`${base}/api/me`, { headers: { cookie: jars[i].header() } });
            baselineMs.push(performance.now() - b0);
          }
        }
      }),
    );
    const wall = (performance.now() - t0) / 1000;

    const check = openDb(dbPath);
    const labels = (check.$client.prepare("select count(*) n from labels").get() as { n: number }).n;
    const done = (check.$client.prepare("select count(*) n from assignments where status = 'done'").get() as { n: number }).n;
    check.$client.close();
    const busy = /SQLITE_BUSY|database is locked/i.test(out);
    console.log(
      `${submitMs.length} submit requests (${c.assignments} labels of 2 dimensions, each sent twice) in ${wall.toFixed(1)} s: ${(submitMs.length / wall).toFixed(0)} req/s`,
    );
    console.log(
      `stored: ${done} assignments done, ${labels} label rows (expected ${c.assignments} and ${c.assignments * 2}); retries recognised: ${duplicatesSeen}; failed requests: ${failures}; SQLITE_BUSY in server log: ${busy ? "YES" : "no"}`,
    );
    const p50 = pct(submitMs, 50);
    const p95 = pct(submitMs, 95);
    const b95 = pct(baselineMs, 95);
    console.log(`submit latency under load: p50 ${p50.toFixed(1)} ms, p95 ${p95.toFixed(1)} ms`);
    console.log(
      `baseline GET /api/me under the same load: p95 ${b95.toFixed(1)} ms; ratio p95 submit / p95 baseline: ${(p95 / b95).toFixed(2)}x`,
    );
    if (labels !== c.assignments * 2 || done !== c.assignments || failures || busy || duplicatesSeen !== c.assignments) {
      throw new Error("labels were not all stored exactly once");
    }
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
