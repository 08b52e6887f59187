/**
 * The results computed from every job and score row: what the running sums (./results.ts,
 * ./aggregates.ts) must equal. Its cost grows with the jobs, so no page calls it; the tests compare the
 * two and the experiment-page bench uses it as its baseline.
 */
import { asc, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { jobs, jobScores } from "@/db/schema";
import { parseExperimentConfig, referenceMethod } from "@/lib/experiments/config";
import { getTask } from "@/lib/tasks/registry";
import { DIMENSIONS } from "@/lib/judges/dialogue-pair";
import { pairOutcome } from "@/lib/metrics/faireval";
import { getExperimentRow } from "./control";
import { PAIR_SEP } from "./create";
import { memoryBuildLedger } from "./memory-cost";
import { LEDGER_COLUMNS, addRows, emptyLedger, type Ledger, type LedgerSumRow } from "./ledger-sums";
import { summarize, type ExperimentResults, type ResultRow } from "./results";
import { summarizePairs, type PairRunCounts } from "./paper-table/wtl";

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

export function recomputeResults(db: Db, experimentId: number): ExperimentResults {
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
  const pairCounts: PairRunCounts[] = []; // one row per run, pair and dimension
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
      const row: PairRunCounts = { a, b, dimension: dim, replicate, win: 0, tie: 0, lose: 0 };
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
      pairCounts.push(row);
    }
  }
  results.sort((x, y) => x.task.localeCompare(y.task) || x.method.localeCompare(y.method) || x.replicate - y.replicate);

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
    pairwise: summarizePairs(pairCounts),
    pairwiseTieMargin: applied === null ? null : { margin: applied, source: e.pairwiseTieMarginSource ?? null },
    summary: summarize(results, reference),
    ledger,
    ledgerByMethod,
    memoryBuild: memory.total,
    memoryBuildByMethod: memory.byMethod,
  };
}
