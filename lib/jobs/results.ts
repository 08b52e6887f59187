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
import { parseExperimentConfig } from "@/lib/experiments/config";
import { getTask } from "@/lib/tasks/registry";
import { DIMENSIONS } from "@/lib/judges/dialogue-pair";
import { pairOutcome } from "@/lib/metrics/faireval";
import { getExperimentRow } from "./control";
import { PAIR_SEP } from "./create";
import { meanSd, pairedTTest } from "./significance";
import { memoryBuildLedger } from "./memory-cost";

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
export type Ledger = { calls: number; cacheHits: number; promptTokens: number; completionTokens: number; cost?: number | null };
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
  const reference = config.reference!;
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

  const ledgerByMethod: Record<string, Ledger> = {};
  const ledger: Ledger = { calls: 0, cacheHits: 0, promptTokens: 0, completionTokens: 0 };
  for (const j of all) {
    if (!j.usage) continue;
    const l = (ledgerByMethod[j.method] ??= { calls: 0, cacheHits: 0, promptTokens: 0, completionTokens: 0 });
    for (const target of [l, ledger]) {
      target.calls += j.usage.calls ?? 0;
      target.cacheHits += j.usage.cacheHits ?? 0;
      target.promptTokens += j.usage.promptTokens ?? 0;
      target.completionTokens += j.usage.completionTokens ?? 0;
    }
  }
  // Cost: the paid tokens of each method's jobs by role, at the config's prices (USD per million tokens).
  const prices = config.prices;
  if (Object.keys(prices).length) {
    const rows = db.all<{ method: string; role: string; p: number; c: number }>(
      sql`SELECT j.method AS method, c.role AS role, sum(c.prompt_tokens) AS p, sum(c.completion_tokens) AS c
          FROM llm_calls c JOIN jobs j ON j.id = c.job_id WHERE j.experiment_id = ${experimentId} AND c.cache_hit = 0 GROUP BY j.method, c.role`,
    );
    ledger.cost = 0;
    for (const l of Object.values(ledgerByMethod)) l.cost = 0;
    for (const r of rows) {
      const price = prices[r.role as keyof typeof prices];
      const usd = price ? (r.p * price.prompt + r.c * price.completion) / 1e6 : 0;
      const l = (ledgerByMethod[r.method] ??= { calls: 0, cacheHits: 0, promptTokens: 0, completionTokens: 0 });
      l.cost = (l.cost ?? 0) + usd;
      ledger.cost += usd;
    }
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

export function listExperiments(db: Db) {
  return db.all<{ id: number; name: string; status: string; datasetName: string; createdAt: number; total: number; finished: number }>(
    sql`SELECT e.id, e.name, e.status, d.name AS datasetName, e.created_at AS createdAt,
          (SELECT count(*) FROM jobs j WHERE j.experiment_id = e.id) AS total,
          (SELECT count(*) FROM jobs j WHERE j.experiment_id = e.id AND j.status IN ('done','failed','skipped')) AS finished
        FROM experiments e JOIN datasets d ON d.id = e.dataset_id ORDER BY e.id DESC`,
  );
}
