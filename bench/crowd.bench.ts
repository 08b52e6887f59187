/**
 * `npm run bench crowd`: crowd participants joining a link campaign and labelling at once, over HTTP to
 * `next start` (issue 43). PAL_CROWD_PARTICIPANTS (default 300) participants each join (next-auth's
 * participant sign-in), open the work page (their first item), submit, then ask /next for each following one, an item every
 * 3 s (a fast human's pace), PAL_CROWD_ITEMS (default 5) items each. The same steps by one participant
 * alone, first, in the same run, are the baseline. Prints submit p95 and work-page p95 for both, their
 * ratios, items over-served (labels beyond k or one item twice to a person: must be 0) and the server's
 * CPU per submission.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { openDb } from "@/db/client";
import { createUser } from "@/lib/users/users";
import { createCampaign } from "@/lib/annotation/campaigns";
import { startApp, type App } from "../test/reliability/app";
import { envNumber } from "@/lib/config";
import { Jar, pct } from "./http-session";
import { pairwiseItemLines } from "./pairwise-items";
import { groupCpuMs } from "./group-cpu";

const N = envNumber("PAL_CROWD_PARTICIPANTS", 300);
const EACH = envNumber("PAL_CROWD_ITEMS", 5);
const K = 3;
const PACE_MS = 3000;

/** A participant joins from the link (next-auth's participant sign-in); the jar then carries the session. */
export async function join(base: string, token: string, pid: string): Promise<Jar> {
  const jar = new Jar();
  const csrf = await fetch(`${base}/api/auth/csrf`);
  jar.take(csrf);
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const r = await fetch(`${base}/api/auth/callback/participant`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie: jar.header() },
    body: new URLSearchParams({
      csrfToken,
      token,
      pid,
      studyId: "bench",
      sessionId: `s-${pid}`,
      browserKey: `bench-key-${pid}-0000`,
      consent: "true",
      json: "true",
    }),
    redirect: "manual",
  });
  jar.take(r);
  if (!jar.header().includes("session-token")) throw new Error(`join of ${pid} failed (${r.status})`);
  return jar;
}

type Times = { page: number[]; next: number[]; submit: number[]; failures: number };

async function work(base: string, token: string, jar: Jar, pid: string, t: Times) {
  for (let i = 0; i < EACH; i++) {
    const started = performance.now();
    const p0 = performance.now();
    let id: string | undefined;
    if (i === 0) {
      // The first item comes with the work page; the queue then asks /next for each following one.
      const page = await fetch(`${base}/join/${token}/work`, { headers: { cookie: jar.header() }, redirect: "manual" });
      id = (await page.text()).match(/assignmentId\\?":(\d+),\\?"status\\?":\\?"pending/)?.[1];
      t.page.push(performance.now() - p0);
    } else {
      const r = await fetch(`${base}/api/join/${token}/next`, {
        method: "POST",
        headers: { "content-type": "application/json", cookie: jar.header(), origin: base },
        body: "{}",
      });
      const b = (await r.json().catch(() => ({}))) as { assignmentId?: number };
      id = b.assignmentId === undefined ? undefined : String(b.assignmentId);
      t.next.push(performance.now() - p0);
    }
    if (!id) return; // no work left, or finished
    await new Promise((r) => setTimeout(r, Math.max(0, PACE_MS - (performance.now() - started)) * (0.8 + Math.random() * 0.4)));
    const s0 = performance.now();
    const r = await fetch(`${base}/api/assignments/${id}`, {
      method: "POST",
      headers: { "content-type": "application/json", cookie: jar.header(), origin: base },
      body: JSON.stringify({
        action: "submit",
        submissionId: `bench-${pid}-${id}`,
        values: { requirement: "Win", preference: "Tie" },
        ms: PACE_MS,
      }),
    });
    await r.arrayBuffer();
    t.submit.push(performance.now() - s0);
    if (!r.ok) t.failures++;
  }
}

export default async function bench() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pal-bench-crowd-"));
  const dbPath = path.join(dir, "bench.db");
  let app: App | null = null;
  try {
    const db = openDb(dbPath);
    const researcher = (await createUser(db, { email: "bench-r@pal.local", role: "researcher", password: "bench-password-1" })).id;
    const items = Math.ceil(((N + 1) * EACH) / K) + 10;
    const lines = pairwiseItemLines(items);
    const c = createCampaign(
      db,
      {
        name: "crowd bench",
        kind: "pairwise-dialogue",
        perItem: K,
        annotatorIds: [],
        link: true,
        crowd: { quota: EACH, goldRate: 0 },
        source: { kind: "upload", fileName: "bench.jsonl", text: lines.join("\n") },
      },
      researcher,
    );
    db.$client.close();
    const token = c.link!.split("/").pop()!;
    console.log(`campaign: ${c.items} items × k=${K}; ${N} participants × ${EACH} items at one per ${PACE_MS / 1000} s`);

    // The app as the reliability checks start it: built if stale, `next start` as its own process group.
    app = await startApp(dbPath);
    const base = app.base;

    // One participant alone: the baseline (the first requests also warm the server up).
    const alone: Times = { page: [], next: [], submit: [], failures: 0 };
    await work(base, token, await join(base, token, "ALONE0"), "ALONE0", alone);

    const crowd: Times = { page: [], next: [], submit: [], failures: 0 };
    const cpu0 = groupCpuMs(app.pid) / 1000;
    const t0 = performance.now();
    await Promise.all(
      Array.from({ length: N }, async (_, i) => {
        await new Promise((r) => setTimeout(r, Math.random() * PACE_MS)); // arrivals spread over one pace
        const pid = `P${String(i).padStart(5, "0")}`;
        await work(base, token, await join(base, token, pid), pid, crowd);
      }),
    );
    const wall = (performance.now() - t0) / 1000;
    const cpu = groupCpuMs(app.pid) / 1000 - cpu0;

    const check = openDb(dbPath);
    const over = (
      check.$client
        .prepare("select count(*) n from (select item_id from assignments where status = 'done' group by item_id having count(*) > ?)")
        .get(K) as { n: number }
    ).n;
    const twice = (
      check.$client
        .prepare("select count(*) n from (select item_id, annotator_id from assignments group by 1, 2 having count(*) > 1)")
        .get() as { n: number }
    ).n;
    check.$client.close();
    const f = (x: number) => `${x.toFixed(1)} ms`;
    console.log(
      `${crowd.submit.length} submissions by ${N} participants in ${wall.toFixed(1)} s; failed requests: ${crowd.failures + alone.failures}`,
    );
    console.log(
      `submit p95: ${f(pct(crowd.submit, 95))} (alone ${f(pct(alone.submit, 95))}; ratio ${(pct(crowd.submit, 95) / pct(alone.submit, 95)).toFixed(2)}x) — target <= 300 ms`,
    );
    console.log(
      `work page p95: ${f(pct(crowd.page, 95))} (alone ${f(pct(alone.page, 95))}; ratio ${(pct(crowd.page, 95) / pct(alone.page, 95)).toFixed(2)}x)`,
    );
    console.log(
      `next item p95: ${f(pct(crowd.next, 95))} (alone ${f(pct(alone.next, 95))}; ratio ${(pct(crowd.next, 95) / pct(alone.next, 95)).toFixed(2)}x)`,
    );
    console.log(`items over-served (more than k labels): ${over}; one item twice to a person: ${twice}`);
    console.log(`server CPU per submission (page + submit): ${((cpu / Math.max(1, crowd.submit.length)) * 1000).toFixed(1)} ms`);
    if (over || twice) throw new Error("items were over-served");
  } finally {
    await app?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
