/**
 * Issue 23.1: agreement is never computed inside a request. A generated campaign of 2,000 rating items ×
 * 30 annotators × 2 labels an item (three quarters already labelled) with 15 judge runs rating every item
 * (issue 30.2: the judge tables are computed with the report too, and the page shows a few of each run's
 * disagreements: ≤ 1.5 MB) on `next start`. Phase A: the 30
 * annotators submit their remaining items (then edit them) alone; phase B: the same while 5 PIs reload the
 * campaign page and /agreement; a probe times GET /api/me throughout. No request fails or times out, and
 * the submits' p95 in phase B is ≤ 500 ms, or, on a machine too loaded for that even without PIs, within
 * 3× phase A's (the PIs' pages add their rendering, never a computation). Then the pages with a warm cache.
 */
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { openDb } from "@/db/client";
import { pct } from "@/bench/http-session";
import { seedRatingCampaign } from "@/test/big-campaign";
import { PASSWORD, signIn, startApp, tempDir, type Jar } from "./app";

const SECONDS_ALONE = 10;
const SECONDS = 20;
const TIMEOUT_MS = 30_000;
const THINK_MS = 1000;

describe("agreement under load", () => {
  it("PIs reload the campaign page (15 judge runs) and /agreement while 30 annotators submit: nothing times out, submit p95 ≤ 500 ms (≤ 3× without PIs on a loaded machine), the page ≤ 1.5 MB", async () => {
    const tmp = tempDir("agreement");
    const dbPath = path.join(tmp.dir, "agreement.db");
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
      const meAlone = me.length;
      const untilA = Date.now() + SECONDS_ALONE * 1000;
      await Promise.all([...annotators.map((_, i) => annotate(i, untilA, alone)), probe(untilA)]);
      const meSplit = me.length;
      const untilB = Date.now() + SECONDS * 1000;
      await Promise.all([
        ...pis.map((_, i) => browse(i, untilB)),
        ...annotators.map((_, i) => annotate(i, untilB, submits)),
        probe(untilB),
      ]);

      // Then the page with a warm cache: wait until the report is current, and time 10 reloads.
      let html = "";
      for (let i = 0; i < 300 && !/data-state="current"/.test(html); i++) {
        html = await (await get(pis[0], campaignPage)).text();
        if (!/data-state="current"/.test(html)) await new Promise((r) => setTimeout(r, 500));
      }
      expect(html).toMatch(/data-state="current"/);
      expect(html).toMatch(/computed (just now|\d+ s ago)/);
      expect(html).toMatch(/data-testid="rating-judge-\d+"/);
      const bytes = Buffer.byteLength(html);
      const warm: number[] = [];
      for (let i = 0; i < 10; i++) await timed(warm, "warm campaign page", () => get(pis[0], campaignPage));
      const warmDash: number[] = [];
      for (let i = 0; i < 10; i++) await timed(warmDash, "warm /agreement", () => get(pis[0], "/agreement"));

      const line = (name: string, xs: number[]) =>
        `${name.padEnd(30)} ${String(xs.length).padStart(5)} requests  p50 ${pct(xs, 50).toFixed(0).padStart(5)} ms  p95 ${pct(xs, 95).toFixed(0).padStart(5)} ms  max ${Math.max(
          ...xs,
        )
          .toFixed(0)
          .padStart(5)} ms`;
      console.log(
        [
          `2,000 items × 30 annotators × 2 labels (${seeded.labelled} labelled before), ${errors.length} errors, load average ${os.loadavg()[0].toFixed(1)} on ${os.cpus().length} cores`,
          `A: 30 annotators alone for ${SECONDS_ALONE} s; B: with 5 PIs reloading the campaign page and /agreement (${THINK_MS} ms between reloads) for ${SECONDS} s`,
          line("A: label submits (POST)", alone),
          line("A: GET /api/me (probe)", me.slice(meAlone, meSplit)),
          line("B: label submits (POST)", submits),
          line(`B: GET ${campaignPage}`, pages[campaignPage]),
          line("B: GET /agreement", pages["/agreement"]),
          line("B: GET /api/me (probe)", me.slice(meSplit)),
          line("campaign page, warm cache", warm),
          `campaign page size, warm cache: ${(bytes / 1e6).toFixed(2)} MB`,
          line("/agreement, warm cache", warmDash),
          `report states seen by the PIs: ${[...states].join(", ")}`,
        ].join("\n"),
      );
      expect(errors.slice(0, 5)).toEqual([]);
      expect(bytes).toBeLessThanOrEqual(1.5e6);
      expect(submits.length).toBeGreaterThanOrEqual(30);
      expect(pages[campaignPage].length).toBeGreaterThan(0);
      // ≤ 500 ms, or on a machine already too loaded for that without PIs (a shared 2-core box), at most 3× phase A's:
      // the PIs' pages add their own rendering (mostly the 500-row items table), never a computation of the report,
      // which used to hold every request for the whole bootstrap (p95 30 s, timeouts).
      expect(pct(submits, 95)).toBeLessThanOrEqual(Math.max(500, 3 * pct(alone, 95)));
      // The pages never waited for a report: they showed that it is on its way, or the last one with its age.
      expect([...states].length).toBeGreaterThan(0);
      expect([...states].every((x) => ["computing", "refreshing", "current"].includes(x))).toBe(true);
    } finally {
      await app.stop();
      tmp.cleanup();
    }
  });
});
