/**
 * The running sums (./aggregates.ts, ./task-sums.ts, migration 0024's triggers) against the full
 * recomputation from every job (./results-full.ts): after random completions, failures, lease
 * takeovers, retries and cancels, the results, the W/T/L (as judged and at an applied tie margin), the
 * ledger and the progress counts are the same; an experiment whose sums were lost is summed again.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempDb } from "@/test/db";
import { PALSET_EN } from "@/test/fixtures";
import { importPalset } from "@/lib/datasets/palset/import";
import { mulberry32 } from "@/lib/random";
import { getTask } from "@/lib/tasks/registry";
import type { LedgerRow } from "@/lib/llm/ledger";
import type { ScoreRow } from "@/lib/tasks/types";
import { launchExperiment } from "./create";
import { prepareJobsSync } from "./prepare";
import { claimJob, completeJob, failJob } from "./lease";
import { cancelExperiment, resumeExperiment } from "./control";
import { experimentResults, type ExperimentResults } from "./results";
import { recomputeResults } from "./results-full";
import { experimentProgress } from "./progress";
import { ensureScoreSums, readGroups, sumUnsummedExperiments } from "./aggregates";
import { TASK_SUMS, type JobValues, type Sums } from "./task-sums";
import { listItemRows } from "./items";

type Rand = () => number;
const pick = <T>(r: Rand, xs: readonly T[]) => xs[Math.floor(r() * xs.length)];

/** Score rows as each task writes them, random but of the right shape (sometimes a value missing). */
function scoresFor(r: Rand, task: string, pair: boolean): ScoreRow[] {
  const bleu = { bleu1: r() * 40, bleu2: r() * 20, bleu3: r() * 10, bleu4: r() < 0.1 ? null : r() * 5 };
  if (pair) {
    const values: Record<string, number> = {};
    for (const dim of ["requirement", "preference"]) {
      const a = 1 + Math.floor(r() * 27) / 3;
      const b = 1 + Math.floor(r() * 27) / 3;
      values[dim] = a > b ? 1 : a < b ? -1 : 0;
      if (r() > 0.1) {
        values[`${dim}MeanA`] = a;
        values[`${dim}MeanB`] = b;
      }
    }
    return [{ scorer: "faireval", version: 1, values }];
  }
  if (task === "requirement")
    return [
      { scorer: "bleu", version: 1, values: bleu },
      // A re-scored judge: the later version counts.
      { scorer: "gscore", version: 1, values: { gscore: pick(r, [0, 0.5, 1, 1.5, 2]) } },
      ...(r() < 0.3 ? [{ scorer: "gscore", version: 2, values: { gscore: pick(r, [0, 0.5, 1, 1.5, 2]) } }] : []),
    ];
  if (task === "solution")
    return [
      { scorer: "bleu", version: 1, values: bleu },
      ...(r() < 0.9 ? [{ scorer: "selection", version: 2, values: { selection: pick(r, [-2, -1, 0, 1, 2]) } }] : []),
    ];
  return [];
}

/** A HiCUPID item's score values: two judges (A/B verdicts with the model's slot, or YES/NO), BLEU counts, ROUGE-L, retrieval hits. */
function hicupidValues(r: Rand): JobValues {
  const type = pick(r, [0, 1, 2]);
  const judge = (): Record<string, number> =>
    type === 2 ? { type, yes: pick(r, [0, 1]) } : { type, verdict: pick(r, [0, 1, 2]), slot: pick(r, [0, 1]) };
  const n = (k: number) => Math.floor(r() * k);
  const v: JobValues = {
    judge: judge(),
    bleu: { tl: 20 + n(20), rl: 20 + n(20), m1: n(15), m2: n(10), m3: n(6), m4: n(3), p1: 20, p2: 19, p3: 18, p4: 17 },
    rouge: { rougeL: r() },
    retrieval: type === 1 ? { type, personaHit: n(2), profileHit: n(2), recall: r() } : { type, hit: n(2), recall: r() },
  };
  if (r() < 0.8) v.judge2 = judge();
  return v;
}

function ledgerRows(r: Rand, jobId: number): LedgerRow[] {
  return Array.from({ length: 1 + Math.floor(r() * 3) }, () => ({
    origin: { jobId },
    purpose: "test",
    role: pick(r, ["assistant", "judge", "user-simulator"] as const),
    config: "c",
    endpoint: "e",
    model: "m",
    cacheKey: null,
    cacheHit: r() < 0.2,
    replicate: 0,
    attempt: 1,
    status: pick(r, ["ok", "ok", "ok", "invalid", "failed"] as const),
    promptTokens: Math.floor(r() * 1000),
    completionTokens: Math.floor(r() * 100),
  }));
}

const sortPairs = (p: ExperimentResults["pairwise"]) =>
  [...p].sort((x, y) => `${x.a}|${x.b}|${x.dimension}`.localeCompare(`${y.a}|${y.b}|${y.dimension}`));

/** Equal up to the last bits of a float (sums are added in another order). */
function expectSame(a: ExperimentResults, b: ExperimentResults) {
  const norm = (x: ExperimentResults) => JSON.parse(JSON.stringify({ ...x, pairwise: sortPairs(x.pairwise) }));
  const walk = (x: unknown, y: unknown, at: string) => {
    if (typeof x === "number" && typeof y === "number") expect(x, at).toBeCloseTo(y, 9);
    else if (x && typeof x === "object") {
      expect(Object.keys(y as object).sort(), at).toEqual(Object.keys(x).sort());
      for (const k of Object.keys(x)) walk((x as never)[k], (y as never)[k], `${at}.${k}`);
    } else expect(y, at).toEqual(x);
  };
  walk(norm(a), norm(b), "results");
}

function statusCounts(t: ReturnType<typeof tempDb>, id: number) {
  const rows = t.db.$client.prepare("SELECT status, count(*) AS n FROM jobs WHERE experiment_id = ? GROUP BY status").all(id) as Array<{
    status: string;
    n: number;
  }>;
  return Object.fromEntries(rows.map((x) => [x.status, x.n]));
}

describe("running sums of an experiment", () => {
  let t: ReturnType<typeof tempDb>;
  let datasetId: number;
  beforeAll(async () => {
    t = tempDb();
    datasetId = (await importPalset(t.db, { paths: [PALSET_EN], name: "en", lang: "en" })).datasetId;
  });
  afterAll(() => t.cleanup());

  it("equal a full recomputation after random completions, failures, takeovers, retries and a cancel", () => {
    const config = {
      methods: [{ name: "vanilla" }, { name: "vanilla-log" }, { name: "recursum" }],
      tasks: ["requirement", "solution", "dialogue"],
      repeats: 2,
      reference: "vanilla",
    };
    const { id } = launchExperiment(t.db, { name: "sums", datasetId, config });
    prepareJobsSync(t.db, id);
    const r = mulberry32(42);
    const all = t.db.$client.prepare("SELECT id, task, method FROM jobs WHERE experiment_id = ?").all(id) as Array<{
      id: number;
      task: string;
      method: string;
    }>;
    expect(all.length).toBeGreaterThan(50);
    const complete = (jobId: number, worker: string) => {
      const j = all.find((x) => x.id === jobId)!;
      return completeJob(
        t.db,
        jobId,
        worker,
        { input: null, output: { x: 1 }, scores: scoresFor(r, j.task, j.method.includes("~")) },
        {},
        ledgerRows(r, jobId),
      );
    };
    // Round 1: claim jobs in the worker's order; most finish, some fail for good, some go back to the queue.
    for (let i = 0; i < all.length * 0.8; i++) {
      const job = claimJob(t.db, id, "w1", 60_000);
      if (!job) break;
      const x = r();
      if (x < 0.75) expect(complete(job.id, "w1")).toBe(true);
      else if (x < 0.85) expect(failJob(t.db, job.id, "w1", "boom", 1)).toBe("failed");
      else if (x < 0.95) expect(failJob(t.db, job.id, "w1", "again", 3)).toBe("queued");
      // else: left running (a crashed worker)
    }
    // Kept as the jobs finished (no summing again on read).
    expect(readGroups(t.db, id).every((g) => g.scored === g.done)).toBe(true);
    expectSame(experimentResults(t.db, id), recomputeResults(t.db, id));
    const p = experimentProgress(t.db, id);
    const c = statusCounts(t, id);
    expect({ done: p.done, failed: p.failed, queued: p.queued, running: p.running }).toEqual({
      done: c.done ?? 0,
      failed: c.failed ?? 0,
      queued: c.queued ?? 0,
      running: c.running ?? 0,
    });

    // Cancel, then resume with the failed items retried: everything runs to the end.
    cancelExperiment(t.db, id);
    expectSame(experimentResults(t.db, id), recomputeResults(t.db, id));
    resumeExperiment(t.db, id, { retryFailed: true });
    t.db.$client.prepare("UPDATE jobs SET status = 'queued', worker = NULL WHERE experiment_id = ? AND status = 'running'").run(id);
    // A worker whose lease runs out: w3 takes its job over once the queue is empty, and the first's late result is refused.
    const stale = claimJob(t.db, id, "w-dead", 1, Date.now() - 10)!;
    let tookOver = false;
    for (;;) {
      const job = claimJob(t.db, id, "w3", 60_000);
      if (!job) break;
      tookOver ||= job.id === stale.id;
      if (job.id !== stale.id && r() < 0.05) failJob(t.db, job.id, "w3", "still failing", 1);
      else expect(complete(job.id, "w3")).toBe(true);
    }
    expect(tookOver).toBe(true);
    expect(complete(stale.id, "w-dead")).toBe(false);
    expect(readGroups(t.db, id).every((g) => g.scored === g.done)).toBe(true);
    const done = experimentResults(t.db, id);
    expectSame(done, recomputeResults(t.db, id));
    expect(done.pairwise.length).toBe(2 * 2); // vanilla~vanilla-log, vanilla~recursum × two dimensions
    expect(experimentProgress(t.db, id).total).toBe(all.length);

    // A tie margin applied later re-derives W/T/L from the stored means, from the sums as from the jobs.
    t.db.$client.prepare("UPDATE experiments SET pairwise_tie_margin = 0.5 WHERE id = ?").run(id);
    const margin = experimentResults(t.db, id);
    expectSame(margin, recomputeResults(t.db, id));
    expect(margin.pairwise).not.toEqual(done.pairwise);

    // Sums lost (an experiment from before them): summed again on the first read, to the same results.
    t.db.$client.prepare("DELETE FROM experiment_score_sums WHERE experiment_id = ?").run(id);
    t.db.$client.prepare("UPDATE experiment_groups SET scored = 0 WHERE experiment_id = ?").run(id);
    t.db.$client.prepare("UPDATE jobs SET score = NULL WHERE experiment_id = ?").run(id);
    expect(readGroups(t.db, id).some((g) => g.scored !== g.done)).toBe(true);
    // The server sums such experiments when it starts; a read that comes first sums it itself.
    expect(sumUnsummedExperiments(t.db)).toEqual([id]);
    expect(sumUnsummedExperiments(t.db)).toEqual([]);
    expectSame(experimentResults(t.db, id), margin);
    t.db.$client.prepare("DELETE FROM experiment_score_sums WHERE experiment_id = ?").run(id);
    t.db.$client.prepare("UPDATE experiment_groups SET scored = 0 WHERE experiment_id = ?").run(id);
    expectSame(experimentResults(t.db, id), margin);
    expect(ensureScoreSums(t.db, id).every((g) => g.scored === g.done)).toBe(true);
    // The Items table's leading score is back too, and sorts the page.
    const top = listItemRows(t.db, id, { task: "requirement", sort: "score", dir: "desc", size: 5 });
    expect(top.rows[0].score).toBe(2); // the item's judgment, 0..2
    expect(top.rows[0].scoreLabel).toBe("G-Score points (0-2)");
  });

  it("each task's sums give its own metrics over the same items (HiCUPID's kappa, hit rate, BLEU; selection; G-Score)", () => {
    const r = mulberry32(7);
    for (const task of ["hicupid", "requirement", "solution"]) {
      for (let round = 0; round < 5; round++) {
        const n = 1 + Math.floor(r() * 60);
        const items: JobValues[] = Array.from({ length: n }, () => {
          if (task === "hicupid") return hicupidValues(r);
          const v: JobValues = {};
          for (const s of scoresFor(r, task, false)) v[s.scorer] = s.values;
          return v;
        });
        const sums: Sums = {};
        // Added in a shuffled order: the figures do not depend on it.
        for (const v of [...items].sort(() => r() - 0.5)) TASK_SUMS[task].add(v, sums);
        const want = getTask(task).metrics(items);
        const got = TASK_SUMS[task].metrics(sums);
        expect(Object.keys(got).sort(), task).toEqual(Object.keys(want).sort());
        for (const k of Object.keys(want)) {
          if (want[k] === null) expect(got[k], `${task}.${k}`).toBeNull();
          else expect(got[k], `${task}.${k}`).toBeCloseTo(want[k]!, 9);
        }
      }
    }
  });
});
