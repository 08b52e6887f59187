/**
 * The results of an experiment, as `pal run --json` prints them and the experiment page lays them out:
 * per method × task × replicate the items, failures and the task's metrics (from the latest version of
 * each scorer); Win/Tie/Lose per pair and dimension per run (paper-table/wtl.ts: the mean over the runs, each
 * run kept); mean ± sd over replicates with a paired t-test
 * against the reference method; and the ledger (calls, cache hits, tokens) per method, answering and
 * memory building apart.
 */
import { sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { stmt } from "@/db/statements";
import { parseExperimentConfig, referenceMethod, type ExperimentConfig } from "@/lib/experiments/config";
import { DIMENSIONS } from "@/lib/judges/dialogue-pair";
import { getExperimentRow } from "./control";
import { PAIR_SEP } from "./create";
import { meanSd, pairedTTest } from "./significance";
import { memoryBuildLedger } from "./memory-cost";
import { LEDGER_COLUMNS, addRows, emptyLedger, type Ledger, type LedgerSumRow } from "./ledger-sums";
import { summarizePairs, type PairRow, type PairRunCounts } from "./paper-table/wtl";
import { ensureScoreSums, groupKey, readScoreSums } from "./aggregates";
import { pairCounts as pairCounts_, TASK_SUMS } from "./task-sums";

export type ResultRow = {
  method: string;
  task: string;
  replicate: number;
  items: number;
  failed: number;
  metrics: Record<string, number | null>;
};
export type { PairRow, PairRunRow } from "./paper-table/wtl";
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
  /** Win/Tie/Lose per pair and dimension: the mean over runs (W + T + L = the topics of one run), each run's counts in `perRun`. */
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

/**
 * The results from the experiment's running sums (./aggregates.ts): a few hundred group rows whatever the
 * number of jobs, so the page, its API and `pal run` read them at once. ./results-full.ts computes the
 * same from every job (the reference the sums are tested against).
 */
export function experimentResults(db: Db, experimentId: number): ExperimentResults {
  const e = getExperimentRow(db, experimentId);
  const config = parseExperimentConfig(e.config);
  const reference = referenceMethod(config);
  const applied = e.pairwiseTieMargin ?? null;
  const groups = ensureScoreSums(db, experimentId);
  const sums = readScoreSums(db, experimentId, applied !== null);

  const results: ResultRow[] = [];
  const pairCounts: PairRunCounts[] = []; // one row per run, pair and dimension
  for (const g of groups) {
    const items = g.queued + g.running + g.done + g.failed + g.cancelled + g.skipped;
    if (items === 0) continue;
    const s = sums.get(groupKey(g)) ?? {};
    if (g.phase === 0) {
      results.push({
        method: g.method,
        task: g.task,
        replicate: g.replicate,
        items,
        failed: g.failed,
        metrics: TASK_SUMS[g.task]?.metrics(s) ?? {},
      });
      continue;
    }
    const [a, b] = g.method.split(PAIR_SEP);
    for (const dim of DIMENSIONS) {
      const c = pairCounts_(s, dim, applied);
      pairCounts.push({ a, b, dimension: dim, replicate: g.replicate, win: c.win, tie: c.tie, lose: c.lose });
    }
  }
  results.sort((x, y) => x.task.localeCompare(y.task) || x.method.localeCompare(y.method) || x.replicate - y.replicate);

  // The answering ledger from its sums per method and role (kept from the ledger rows themselves, so a
  // job that failed still counts what it paid).
  const prices = config.prices;
  const priced = Object.keys(prices).length > 0;
  const ledgerByMethod: Record<string, Ledger> = {};
  const ledger = emptyLedger(priced);
  for (const r of ledgerSumRows(db, experimentId)) {
    addRows((ledgerByMethod[r.method] ??= emptyLedger(priced)), [r], prices);
    addRows(ledger, [r], prices);
  }
  const memory = memoryBuildLedger(db, experimentId, prices);
  return {
    experiment: experimentId,
    status: e.status,
    reference,
    results,
    pairwise: summarizePairs(pairCounts),
    pairwiseTieMargin: applied === null ? null : { margin: applied, source: e.pairwiseTieMarginSource ?? null },
    summary: summarize(results, reference),
    ledger,
    ledgerByMethod,
    memoryBuild: memory.total,
    memoryBuildByMethod: memory.byMethod,
  };
}

/** The jobs' ledger per method and role, from its running sums (migration 0024's trigger on llm_calls). */
function ledgerSumRows(db: Db, experimentId: number): Array<LedgerSumRow & { method: string }> {
  return stmt(
    db,
    `SELECT method, role, ok, hits, requests, prompt_tokens AS p, completion_tokens AS c, paid_prompt_tokens AS paidP,
     paid_completion_tokens AS paidC, bad, bad_prompt_tokens AS badP, bad_completion_tokens AS badC,
     unknown, cut_off AS cut
     FROM experiment_ledger_sums WHERE experiment_id = ? ORDER BY method, role`,
  ).all(experimentId) as Array<LedgerSumRow & { method: string }>;
}

/** Mean ± sd over the runs of each method × task, with a paired t-test (runs paired by replicate) against the reference. */
export function summarize(results: readonly ResultRow[], reference: string): SummaryRow[] {
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
  return summary;
}

/**
 * Paid attempts of an experiment so far and their cost at `prices` (a resumed run's spend cap counts
 * them): its jobs' calls, the memory builds it ran (llm_calls.experiment_id), and the lines of its judge
 * batches still out (each took its place when sent; its rows come when it is read). Read once when a run
 * starts, not by pages.
 */
export function paidSoFar(db: Db, experimentId: number, prices: ExperimentConfig["prices"]): { calls: number; usd: number } {
  const rows = db.$client
    .prepare(
      `SELECT ${LEDGER_COLUMNS} FROM llm_calls c
       WHERE c.experiment_id = ? OR (c.experiment_id IS NULL AND c.job_id IN (SELECT id FROM jobs WHERE experiment_id = ?)) GROUP BY c.role`,
    )
    .all(experimentId, experimentId) as LedgerSumRow[];
  const l = addRows(emptyLedger(true), rows, prices);
  const out = db.$client
    .prepare(
      `SELECT coalesce(sum(requests), 0) AS n FROM llm_batches WHERE experiment_id = ?
       AND status NOT IN ('ingested', 'failed', 'expired', 'cancelled')`,
    )
    .get(experimentId) as { n: number };
  return { calls: l.requests + out.n, usd: l.cost ?? 0 };
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
          coalesce(g.total, 0) AS total, coalesce(g.failed, 0) AS failed, coalesce(g.finished, 0) AS finished
        FROM experiments e JOIN datasets d ON d.id = e.dataset_id
        LEFT JOIN (SELECT experiment_id, sum(queued + running + done + failed + cancelled + skipped) AS total, sum(failed) AS failed,
          sum(done + failed + skipped) AS finished FROM experiment_groups GROUP BY experiment_id) g ON g.experiment_id = e.id
        ORDER BY e.id DESC`,
  );
}
