/**
 * What a run leaves in the database, read in a form two databases can be compared by: an experiment's
 * outputs and scores, a memory's entries, an LLM judge run's verdicts (no ids, times or costs). The
 * SIGKILL check compares a killed-and-resumed server's results with an uninterrupted run's.
 */
import type Database from "better-sqlite3";

export function experimentOutcome(db: Database.Database, experimentId: number): unknown[] {
  return db
    .prepare(
      `SELECT j.replicate, j.method, j.task, j.item_key, j.status, j.error, j.output, s.scorer, s."values" AS vals
       FROM jobs j LEFT JOIN job_scores s ON s.job_id = j.id
       WHERE j.experiment_id = ? ORDER BY j.replicate, j.method, j.task, j.item_key, s.scorer`,
    )
    .all(experimentId);
}

export function memoryOutcome(db: Database.Database, method: string): unknown[] {
  return db
    .prepare(
      `SELECT v.user_key, v.status, e.kind, e.key, e.content, s.session_key, e.valid_from_seq, e.valid_to_seq
       FROM memory_versions v JOIN memory_entries e ON e.version_id = v.id JOIN memory_steps s ON s.id = e.step_id
       WHERE v.method = ? ORDER BY v.user_key, e.kind, e.key, e.valid_from_seq, e.content`,
    )
    .all(method);
}

export function judgeOutcome(db: Database.Database, campaignName: string): unknown[] {
  return db
    .prepare(
      `SELECT i.external_id, l.dimension, l.value, l.judgments, l.analysis
       FROM judge_labels l JOIN judge_runs r ON r.id = l.run_id JOIN campaigns c ON c.id = r.campaign_id
       JOIN campaign_items i ON i.id = l.item_id
       WHERE c.name = ? AND r.origin = 'llm' ORDER BY i.external_id, l.dimension`,
    )
    .all(campaignName);
}

/**
 * Paid model calls that were paid more than once: the same request (cache key, replicate) answered
 * and accepted twice. A crash may repeat a call whose answer was lost with the process, but then the
 * first one never reached the ledger.
 */
export function paidTwice(db: Database.Database): unknown[] {
  return db
    .prepare(
      `SELECT cache_key, replicate, purpose, count(*) AS n FROM llm_calls
       WHERE cache_hit = 0 AND status = 'ok' AND cache_key IS NOT NULL GROUP BY cache_key, replicate HAVING n > 1`,
    )
    .all();
}

/** Ledger rows of requests that reached the endpoint (paid attempts of any status; cache hits excluded). */
export function paidRows(db: Database.Database, since = 0): number {
  return (db.prepare("SELECT count(*) AS n FROM llm_calls WHERE cache_hit = 0 AND created_at >= ?").get(since) as { n: number }).n;
}
