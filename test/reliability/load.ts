/**
 * The load scenario shared by `npm run bench load` (60 s) and the reliability suite (10 s): 50 clients
 * browsing pages and 20 annotators submitting labels against `next start`, plus one client timing
 * `GET /api/me` under the same load as the baseline. Plain fetch loops over signed-in sessions.
 */
import path from "node:path";
import { openDb } from "@/db/client";
import { createUser } from "@/lib/users/users";
import { createCampaign } from "@/lib/annotation/campaigns";
import { pct } from "@/bench/http-session";
import { PASSWORD, postJson, signIn, startApp, tempDir, type Jar } from "./app";

export type LoadResult = {
  seconds: number;
  pages: number[];
  submits: number[];
  me: number[];
  errors: string[];
  labels: number;
  /** One printable line per measure. */
  report: string[];
};

const BROWSER_ACCOUNTS = 5;
const ITEMS = 120;

export async function runLoad(o: { browsers: number; annotators: number; seconds: number }): Promise<LoadResult> {
  const tmp = tempDir("load");
  const dbPath = path.join(tmp.dir, "load.db");
  const db = openDb(dbPath);
  const researchers: string[] = [];
  for (let i = 0; i < BROWSER_ACCOUNTS; i++) {
    const email = `load-r${i}@pal.local`;
    await createUser(db, { email, role: "researcher", password: PASSWORD });
    researchers.push(email);
  }
  const annotators: Array<{ id: number; email: string }> = [];
  for (let i = 0; i < o.annotators; i++) {
    const email = `load-a${i}@pal.local`;
    annotators.push({ id: (await createUser(db, { email, role: "annotator", password: PASSWORD })).id, email });
  }
  const lines = Array.from({ length: ITEMS }, (_, i) =>
    JSON.stringify({
      id: `t${i}`,
      user_info: `user ${i}`,
      a: { system: "x", output: `answer a ${i}` },
      b: { system: "y", output: `answer b ${i}` },
    }),
  );
  const campaignId = createCampaign(
    db,
    {
      name: "load",
      kind: "pairwise-dialogue",
      perItem: o.annotators,
      annotatorIds: annotators.map((a) => a.id),
      source: { kind: "upload", fileName: "load.jsonl", text: lines.join("\n") },
    },
    (db.$client.prepare("SELECT id FROM users WHERE role = 'researcher'").get() as { id: number }).id,
  ).id;
  const work = annotators.map((a) =>
    (db.$client.prepare("SELECT id FROM assignments WHERE annotator_id = ? ORDER BY position").all(a.id) as Array<{ id: number }>).map(
      (r) => r.id,
    ),
  );
  db.$client.close();

  const app = await startApp(dbPath, { PAL_SERVER_WORKER: "0" });
  try {
    const base = app.base;
    const browserJars = await Promise.all(researchers.map((e) => signIn(base, e, PASSWORD)));
    const annotatorJars = await Promise.all(annotators.map((a) => signIn(base, a.email, PASSWORD)));
    const PAGES = ["/datasets", "/campaigns", `/campaigns/${campaignId}`, "/experiments", "/memory"];
    const pages: number[] = [];
    const submits: number[] = [];
    const me: number[] = [];
    const errors: string[] = [];
    const until = Date.now() + o.seconds * 1000;
    const timed = async (into: number[], what: string, f: () => Promise<Response>) => {
      const t0 = performance.now();
      try {
        const r = await f();
        await r.arrayBuffer();
        into.push(performance.now() - t0);
        if (r.status !== 200) errors.push(`${what}: HTTP ${r.status}`);
      } catch (e) {
        errors.push(`${what}: ${e instanceof Error ? e.message : e}`);
      }
    };
    const get = (jar: Jar, url: string) => fetch(`${base}${url}`, { headers: { cookie: jar.header() } });
    const browse = async (i: number) => {
      for (let k = i; Date.now() < until; k++) {
        const url = PAGES[k % PAGES.length];
        await timed(pages, `GET ${url}`, () => get(browserJars[i % browserJars.length], url));
      }
    };
    const annotate = async (i: number) => {
      // Through the queue, then again as edits (a new submission id each round).
      for (let round = 0; Date.now() < until; round++) {
        for (const id of work[i]) {
          if (Date.now() >= until) return;
          const v = ["Win", "Tie", "Lose"][(id + round) % 3];
          await timed(submits, `submit ${id}`, () =>
            postJson(base, annotatorJars[i], `/api/assignments/${id}`, {
              action: "submit",
              submissionId: `load-${id}-round-${round}`,
              values: { requirement: v, preference: v },
              ms: 300,
            }),
          );
        }
      }
    };
    const probe = async () => {
      while (Date.now() < until) {
        await timed(me, "GET /api/me", () => get(browserJars[0], "/api/me"));
        await new Promise((r) => setTimeout(r, 100));
      }
    };
    await Promise.all([
      ...Array.from({ length: o.browsers }, (_, i) => browse(i)),
      ...Array.from({ length: o.annotators }, (_, i) => annotate(i)),
      probe(),
    ]);
    const check = openDb(dbPath);
    const labels = (check.$client.prepare("SELECT count(*) n FROM labels").get() as { n: number }).n;
    check.$client.close();
    const line = (name: string, xs: number[]) =>
      `${name.padEnd(22)} ${String(xs.length).padStart(6)} requests  p50 ${pct(xs, 50).toFixed(0).padStart(5)} ms  p95 ${pct(xs, 95).toFixed(0).padStart(5)} ms  (${(pct(xs, 95) / pct(me, 95)).toFixed(2)}× GET /api/me)`;
    return {
      seconds: o.seconds,
      pages,
      submits,
      me,
      errors,
      labels,
      report: [
        `${o.browsers} browsing + ${o.annotators} annotating clients for ${o.seconds} s against next start: ${errors.length} errors`,
        line("pages (GET)", pages),
        line("label submits (POST)", submits),
        line("baseline GET /api/me", me),
      ],
    };
  } finally {
    await app.stop();
    tmp.cleanup();
  }
}
