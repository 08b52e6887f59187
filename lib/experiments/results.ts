/**
 * The results of an experiment, as `pal run --json` prints them and the experiment page lays them out:
 * per method × task × replicate the items, failures and the task's metrics (from the latest version of
 * each scorer); Win/Tie/Lose per pair and dimension; mean ± sd over replicates with a paired t-test
 * against the reference method; and the ledger (calls, cache hits, tokens) per method, answering and
 * memory building apart.
 */
import { asc, eq, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { jobs, jobScores } from "@/db/schema";
import { parseExperimentConfig, referenceMethod, type ExperimentConfig } from "@/lib/experiments/config";
import { getTask } from "@/lib/tasks/registry";
import { DIMENSIONS } from "@/lib/judges/dialogue-pair";
import { pairOutcome } from "@/lib/metrics/faireval";
import { getExperimentRow } from "./control";
import { PAIR_SEP } from "./create";
import { meanSd, pairedTTest } from "./significance";
import { memoryBuildLedger } from "./memory-cost";
import { LEDGER_COLUMNS, addRows, emptyLedger, type Ledger, type LedgerSumRow } from "./ledger-sums";

export type ResultRow = {
  method: string;
  task: string;
  replicate: number;
  items: number;
  failed: number;
  metrics: Record<string, number | null>;
};
export type PairRow = { a: string; b: string; dimension: string; win: number; tie: number; lose: number };
export type SummaryRow = {
  method: string;
  task: string;
  runs: number;
  metrics: Record<string, { mean: number | null; sd: number | null; p: number | null }>;
};
export type { Ledger } from "./ledger-sums";
export type ExperimentResults = {
  experiment: number;
  status: string;
  reference: string;
  results: ResultRow[];
  pairwise: PairRow[];
  /** A tie margin applied after the run (W/T/L re-derived from the mean scores), and where it came from; null: as run. */
  pairwiseTieMargin: { margin: number; source: string | null } | null;
  summary: SummaryRow[];
  /** The answering calls (the jobs' ledger rows). */
  ledger: Ledger;
  ledgerByMethod: Record<string, Ledger>;
  /** Building the memory versions the methods answered from, apart from answering; the total counts each version once. */
  memoryBuild: Ledger;
  memoryBuildByMethod: Record<string, Ledger>;
};

/** scorer → values of each job, the latest version of each scorer. */
export function latestScores(db: Db, experimentId: number): Map<number, Record<string, Record<string, number | null>>> {
  const rows = db
    .select({ jobId: jobScores.jobId, scorer: jobScores.scorer, version: jobScores.version, values: jobScores.values })
    .from(jobScores)
    .innerJoin(jobs, eq(jobs.id, jobScores.jobId))
    .where(eq(jobs.experimentId, experimentId))
    .orderBy(asc(jobScores.version))
    .all();
  const out = new Map<number, Record<string, Record<string, number | null>>>();
  for (const r of rows) {
    const m = out.get(r.jobId) ?? {};
    m[r.scorer] = r.values; // later versions overwrite earlier ones
    out.set(r.jobId, m);
  }
  return out;
}

export function experimentResults(db: Db, experimentId: number): ExperimentResults {
  const e = getExperimentRow(db, experimentId);
  const config = parseExperimentConfig(e.config);
  const reference = referenceMethod(config);
  const all = db
    .select({
      id: jobs.id,
      method: jobs.method,
      task: jobs.task,
      replicate: jobs.replicate,
      status: jobs.status,
      usage: jobs.usage,
      phase: jobs.phase,
    })
    .from(jobs)
    .where(eq(jobs.experimentId, experimentId))
    .all();
  const scores = latestScores(db, experimentId);
  const applied = e.pairwiseTieMargin ?? null;

  const groups = new Map<string, typeof all>();
  for (const j of all) {
    const k = `${j.method}\u0000${j.task}\u0000${j.replicate}\u0000${j.phase}`;
    const g = groups.get(k) ?? [];
    g.push(j);
    groups.set(k, g);
  }
  const results: ResultRow[] = [];
  const pairCounts = new Map<string, PairRow>();
  for (const g of groups.values()) {
    const { method, task, replicate, phase } = g[0];
    const done = g.filter((j) => j.status === "done");
    if (phase === 0) {
      results.push({
        method,
        task,
        replicate,
        items: g.length,
        failed: g.filter((j) => j.status === "failed").length,
        metrics: getTask(task).metrics(done.map((j) => scores.get(j.id) ?? {})),
      });
      continue;
    }
    const [a, b] = method.split(PAIR_SEP);
    for (const dim of DIMENSIONS) {
      const key = `${a}\u0000${b}\u0000${dim}`;
      const row = pairCounts.get(key) ?? { a, b, dimension: dim, win: 0, tie: 0, lose: 0 };
      for (const j of done) {
        const f = scores.get(j.id)?.faireval;
        const meanA = f?.[`${dim}MeanA`];
        const meanB = f?.[`${dim}MeanB`];
        // An applied margin re-derives the verdict with the judge's own rule from the stored means.
        const v =
          applied !== null && typeof meanA === "number" && typeof meanB === "number"
            ? { Win: 1, Tie: 0, Lose: -1 }[pairOutcome(meanA, meanB, applied)]
            : f?.[dim];
        if (v === 1) row.win++;
        else if (v === 0) row.tie++;
        else if (v === -1) row.lose++;
      }
      pairCounts.set(key, row);
    }
  }
  results.sort((x, y) => x.task.localeCompare(y.task) || x.method.localeCompare(y.method) || x.replicate - y.replicate);

  const summary: SummaryRow[] = [];
  const byMethodTask = new Map<string, ResultRow[]>();
  for (const r of results) {
    const k = `${r.method}\u0000${r.task}`;
    byMethodTask.set(k, [...(byMethodTask.get(k) ?? []), r]);
  }
  for (const [k, rows] of byMethodTask) {
    const [method, task] = k.split("\u0000");
    const ref = byMethodTask.get(`${reference}\u0000${task}`) ?? [];
    const metrics: SummaryRow["metrics"] = {};
    for (const name of Object.keys(rows[0].metrics)) {
      const vals = rows.map((r) => r.metrics[name]).filter((v): v is number => typeof v === "number");
      const ms = meanSd(vals);
      let p: number | null = null;
      if (method !== reference) {
        // Pair runs by replicate index.
        const a: number[] = [];
        const b: number[] = [];
        for (const r of rows) {
          const rr = ref.find((x) => x.replicate === r.replicate);
          const va = rr?.metrics[name];
          const vb = r.metrics[name];
          if (typeof va === "number" && typeof vb === "number") {
            a.push(va);
            b.push(vb);
          }
        }
        p = pairedTTest(a, b).p;
      }
      metrics[name] = { mean: ms.mean, sd: ms.sd, p };
    }
    summary.push({ method, task, runs: rows.length, metrics });
  }

  // The answering ledger from the ledger rows themselves, so a job that failed counts what it paid too.
  const prices = config.prices;
  const priced = Object.keys(prices).length > 0;
  const ledgerByMethod: Record<string, Ledger> = {};
  const ledger = emptyLedger(priced);
  const rows = db.$client
    .prepare(
      `SELECT j.method AS method, ${LEDGER_COLUMNS} FROM llm_calls c JOIN jobs j ON j.id = c.job_id
       WHERE j.experiment_id = ? GROUP BY j.method, c.role`,
    )
    .all(experimentId) as Array<LedgerSumRow & { method: string }>;
  for (const r of rows) {
    addRows((ledgerByMethod[r.method] ??= emptyLedger(priced)), [r], prices);
    addRows(ledger, [r], prices);
  }
  const memory = memoryBuildLedger(db, experimentId, prices);
  return {
    experiment: experimentId,
    status: e.status,
    reference,
    results,
    pairwise: [...pairCounts.values()],
    pairwiseTieMargin: applied === null ? null : { margin: applied, source: e.pairwiseTieMarginSource ?? null },
    summary,
    ledger,
    ledgerByMethod,
    memoryBuild: memory.total,
    memoryBuildByMethod: memory.byMethod,
  };
}

/** Paid attempts of an experiment so far and their cost at `prices` (a resumed run's spend cap counts them). */
export function paidSoFar(db: Db, experimentId: number, prices: ExperimentConfig["prices"]): { calls: number; usd: number } {
  const rows = db.$client
    .prepare(`SELECT ${LEDGER_COLUMNS} FROM llm_calls c JOIN jobs j ON j.id = c.job_id WHERE j.experiment_id = ? GROUP BY c.role`)
    .all(experimentId) as LedgerSumRow[];
  const l = addRows(emptyLedger(true), rows, prices);
  return { calls: l.requests, usd: l.cost ?? 0 };
}

export function listExperiments(db: Db) {
  return db.all<{
    id: number;
    name: string;
    status: string;
    datasetName: string;
    createdAt: number;
    total: number;
    finished: number;
    failed: number;
  }>(
    sql`SELECT e.id, e.name, e.status, d.name AS datasetName, e.created_at AS createdAt,
          (SELECT count(*) FROM jobs j WHERE j.experiment_id = e.id) AS total,
          (SELECT count(*) FROM jobs j WHERE j.experiment_id = e.id AND j.status = 'failed') AS failed,
          (SELECT count(*) FROM jobs j WHERE j.experiment_id = e.id AND j.status IN ('done','failed','skipped')) AS finished
        FROM experiments e JOIN datasets d ON d.id = e.dataset_id ORDER BY e.id DESC`,
  );
}
