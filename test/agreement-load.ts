/**
 * Issue 23.1's load, shared by the reliability check (what cannot depend on the machine: nothing fails or times
 * out, the page's size, the report states) and `npm run bench agreement-load` (the times, as ratios measured in
 * the same run). A generated campaign of 2,000 rating items × 30 annotators × 2 labels an item (three quarters
 * already labelled) with 15 judge runs rating every item, on `next start`. Phase A: the 30 annotators submit
 * their remaining items (then edit them) alone; phase B: the same while 5 PIs reload the campaign page and
 * /agreement; a probe times GET /api/me throughout. Then the pages with a warm cache.
 */
import os from "node:os";
import path from "node:path";
import { openDb } from "@/db/client";
import { pct } from "@/bench/http-session";
import { seedRatingCampaign } from "@/test/big-campaign";
import { PASSWORD, signIn, startApp, type Jar } from "@/test/reliability/app";

const TIMEOUT_MS = 30_000;
const THINK_MS = 1000;

export type AgreementLoad = {
  campaignPage: string;
  labelled: number;
  /** Times in ms of each request, by phase. */
  alone: number[];
  submits: number[];
  pages: Record<string, number[]>;
  meAlone: number[];
  meLoaded: number[];
  warm: number[];
  warmDash: number[];
  /** The campaign page's HTML once its report is current, and its size in bytes. */
  html: string;
  bytes: number;
  errors: string[];
  states: string[];
};

/** Seeds the campaign into `dir`, runs both phases on `next start` and the warm reloads, stops the app. */
export async function runAgreementLoad(dir: string, seconds = { alone: 10, loaded: 20 }): Promise<AgreementLoad> {
  const dbPath = path.join(dir, "agreement.db");
  const db = openDb(dbPath);
  const seeded = await seedRatingCampaign(db, {
    items: 2000,
    annotators: 30,
    perItem: 2,
    labelledShare: 0.75,
    researchers: 5,
    password: PASSWORD,
    judgeRuns: 15,
  });
  db.$client.close();
  const app = await startApp(dbPath, { PAL_SERVER_WORKER: "0" });
  try {
    const base = app.base;
    const pis = await Promise.all(seeded.researchers.map((e) => signIn(base, e, PASSWORD)));
    const annotators = await Promise.all(seeded.annotators.map((a) => signIn(base, a.email, PASSWORD)));
    const campaignPage = `/campaigns/${seeded.campaignId}`;
    const pages: Record<string, number[]> = { [campaignPage]: [], "/agreement": [] };
    const alone: number[] = [];
    const submits: number[] = [];
    const me: number[] = [];
    const errors: string[] = [];
    const states = new Set<string>();
    const timed = async (into: number[], what: string, f: () => Promise<Response>) => {
      const t0 = performance.now();
      try {
        const r = await f();
        const text = await r.text();
        into.push(performance.now() - t0);
        if (r.status !== 200) errors.push(`${what}: HTTP ${r.status}`);
        return text;
      } catch (e) {
        errors.push(`${what}: ${e instanceof Error ? e.message : e}`);
        return "";
      }
    };
    const get = (jar: Jar, url: string) =>
      fetch(`${base}${url}`, { headers: { cookie: jar.header() }, signal: AbortSignal.timeout(TIMEOUT_MS) });
    const browse = async (i: number, until: number) => {
      for (let k = i; Date.now() < until; k++) {
        const url = k % 2 ? "/agreement" : campaignPage;
        const html = await timed(pages[url], `GET ${url}`, () => get(pis[i], url));
        for (const m of html.matchAll(/data-state="(\w+)"/g)) states.add(m[1]);
        // A person reloading: a second between a page and the next.
        await new Promise((r) => setTimeout(r, THINK_MS));
      }
    };
    const next = seeded.open.map(() => 0);
    const annotate = async (i: number, until: number, into: number[]) => {
      const mine = seeded.open[i];
      while (Date.now() < until) {
        // Through the queue, then again as edits (a new submission id each round).
        const k = next[i]++;
        const id = mine[k % mine.length];
        const round = Math.floor(k / mine.length);
        await timed(into, `submit ${id}`, () =>
          fetch(`${base}/api/assignments/${id}`, {
            method: "POST",
            headers: { "content-type": "application/json", cookie: annotators[i].header(), origin: base },
            body: JSON.stringify({
              action: "submit",
              submissionId: `rel-${id}-round-${round}`,
              values: { quality: String(1 + ((id + round) % 3)) },
              ms: 4000,
            }),
            signal: AbortSignal.timeout(TIMEOUT_MS),
          }),
        );
      }
    };
    const probe = async (until: number) => {
      while (Date.now() < until) {
        await timed(me, "GET /api/me", () => get(pis[0], "/api/me"));
        await new Promise((r) => setTimeout(r, 100));
      }
    };
    const untilA = Date.now() + seconds.alone * 1000;
    await Promise.all([...annotators.map((_, i) => annotate(i, untilA, alone)), probe(untilA)]);
    const meSplit = me.length;
    const untilB = Date.now() + seconds.loaded * 1000;
    await Promise.all([...pis.map((_, i) => browse(i, untilB)), ...annotators.map((_, i) => annotate(i, untilB, submits)), probe(untilB)]);

    // Then the page with a warm cache: wait until the report is current, and time 10 reloads.
    let html = "";
    for (let i = 0; i < 300 && !/data-state="current"/.test(html); i++) {
      html = await (await get(pis[0], campaignPage)).text();
      if (!/data-state="current"/.test(html)) await new Promise((r) => setTimeout(r, 500));
    }
    const warm: number[] = [];
    for (let i = 0; i < 10; i++) await timed(warm, "warm campaign page", () => get(pis[0], campaignPage));
    const warmDash: number[] = [];
    for (let i = 0; i < 10; i++) await timed(warmDash, "warm /agreement", () => get(pis[0], "/agreement"));
    return {
      campaignPage,
      labelled: seeded.labelled,
      alone,
      submits,
      pages,
      meAlone: me.slice(0, meSplit),
      meLoaded: me.slice(meSplit),
      warm,
      warmDash,
      html,
      bytes: Buffer.byteLength(html),
      errors,
      states: [...states],
    };
  } finally {
    await app.stop();
  }
}

function line(name: string, xs: number[]): string {
  const f = (x: number) => x.toFixed(0).padStart(5);
  return `${name.padEnd(30)} ${String(xs.length).padStart(5)} requests  p50 ${f(pct(xs, 50))} ms  p95 ${f(pct(xs, 95))} ms  max ${f(Math.max(...xs))} ms`;
}

/** The measurements as a person reads them (both the check and the bench print it). */
export function describeAgreementLoad(r: AgreementLoad, seconds = { alone: 10, loaded: 20 }): string {
  return [
    `2,000 items × 30 annotators × 2 labels (${r.labelled} labelled before), ${r.errors.length} errors, load average ${os.loadavg()[0].toFixed(1)} on ${os.cpus().length} cores`,
    `A: 30 annotators alone for ${seconds.alone} s; B: with 5 PIs reloading the campaign page and /agreement (${THINK_MS} ms between reloads) for ${seconds.loaded} s`,
    line("A: label submits (POST)", r.alone),
    line("A: GET /api/me (probe)", r.meAlone),
    line("B: label submits (POST)", r.submits),
    line(`B: GET ${r.campaignPage}`, r.pages[r.campaignPage]),
    line("B: GET /agreement", r.pages["/agreement"]),
    line("B: GET /api/me (probe)", r.meLoaded),
    line("campaign page, warm cache", r.warm),
    `campaign page size, warm cache: ${(r.bytes / 1e6).toFixed(2)} MB`,
    line("/agreement, warm cache", r.warmDash),
    `report states seen by the PIs: ${r.states.join(", ")}`,
  ].join("\n");
}
