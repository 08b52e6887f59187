/**
 * What building the memories an experiment answered from cost: the ledger rows of those memory
 * versions (llm_calls.memory_version_id), per method, kept apart from the answering calls (job_id).
 * A version is built once and shared by every task, label and experiment that uses it, so each
 * method that used it shows it, and the experiment's total counts it once.
 */
import type { Db } from "@/db/client";
import type { ExperimentConfig } from "@/lib/experiments/config";
import { sumLedger, type Ledger, type LedgerSumRow } from "./ledger-sums";

/** Notes that a job of `method` (its label) in this experiment answered from memory version `versionId`. */
export function recordMemoryVersion(db: Db, experimentId: number, method: string, versionId: number): void {
  db.$client
    .prepare("INSERT INTO experiment_memory_versions (experiment_id, method, version_id) VALUES (?, ?, ?) ON CONFLICT DO NOTHING")
    .run(experimentId, method, versionId);
}

type Row = LedgerSumRow & { method: string | null };
const sums = sumLedger;
/** The columns of LedgerSumRow from memory_ledger_sums `s` (kept per version and role by a trigger on llm_calls). */
const COLUMNS = `s.role AS role, sum(s.ok) AS ok, sum(s.hits) AS hits, sum(s.requests) AS requests, sum(s.prompt_tokens) AS p,
  sum(s.completion_tokens) AS c, sum(s.paid_prompt_tokens) AS paidP, sum(s.paid_completion_tokens) AS paidC, sum(s.bad) AS bad,
  sum(s.bad_prompt_tokens) AS badP, sum(s.bad_completion_tokens) AS badC, sum(s.unknown) AS unknown, sum(s.cut_off) AS cut`;

/**
 * The memory-build ledger of an experiment: per method label, and in total (each version once).
 * Calls, cache hits and tokens as the jobs' usage counts them; cost from the paid (non-cached) tokens
 * at the config's prices (USD per million tokens), when it has prices. Read from each version's sums
 * (memory_ledger_sums), not its calls: a full run uses ~1,200 versions of thousands of calls.
 */
export function memoryBuildLedger(
  db: Db,
  experimentId: number,
  prices: ExperimentConfig["prices"],
): { byMethod: Record<string, Ledger>; total: Ledger; versions: number } {
  const perMethod = db.$client
    .prepare(
      `SELECT v.method AS method, ${COLUMNS} FROM experiment_memory_versions v JOIN memory_ledger_sums s ON s.version_id = v.version_id
       WHERE v.experiment_id = ? GROUP BY v.method, s.role`,
    )
    .all(experimentId) as Row[];
  const byMethod: Record<string, Ledger> = {};
  const methods = db.$client
    .prepare("SELECT method, count(DISTINCT version_id) AS n FROM experiment_memory_versions WHERE experiment_id = ? GROUP BY method")
    .all(experimentId) as Array<{ method: string; n: number }>;
  for (const m of methods)
    byMethod[m.method] = sums(
      perMethod.filter((r) => r.method === m.method),
      prices,
    );
  const total = db.$client
    .prepare(
      `SELECT NULL AS method, ${COLUMNS} FROM memory_ledger_sums s
       WHERE s.version_id IN (SELECT version_id FROM experiment_memory_versions WHERE experiment_id = ?) GROUP BY s.role`,
    )
    .all(experimentId) as Row[];
  const versions = db.$client
    .prepare("SELECT count(DISTINCT version_id) AS n FROM experiment_memory_versions WHERE experiment_id = ?")
    .get(experimentId) as { n: number };
  return { byMethod, total: sums(total, prices), versions: versions.n };
}
