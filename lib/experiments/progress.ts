/** Live progress of an experiment: job counts by status and an ETA from the rate of this run so far. */
import { sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { getExperimentRow } from "./control";
import { batchesOfExperiment, parkedJobs } from "./judge-batch";
import { batchState, type BatchState } from "@/lib/llm/batch";
import { readActivity } from "./activity";
import type { RunActivity } from "./activity-text";

export type Progress = {
  status: string;
  /** Why the run stopped (a spend-guard pause, a failure), when it says. */
  error: string | null;
  /** Jobs created so far (while "preparing", fewer than `planned`). */
  total: number;
  /** Jobs the launch planned (null for experiments from before launches were prepared in the background). */
  planned: number | null;
  done: number;
  failed: number;
  running: number;
  queued: number;
  cancelled: number;
  skipped: number;
  /** Finished share, 0..1 (done + failed + skipped over the total). */
  fraction: number;
  /** Milliseconds left at the current rate; null before the first job finishes. */
  etaMs: number | null;
  /** Judge calls sent as batches (config judgeBatch): each batch's state, and the jobs waiting for one. */
  batches: BatchState[];
  waitingForBatch: number;
  /** Model requests in flight in the processes running it now (./activity.ts); null when none runs it. */
  inFlight: RunActivity | null;
};

export function experimentProgress(db: Db, id: number, now = Date.now()): Progress {
  const e = getExperimentRow(db, id);
  const rows = db.all<{ status: string; n: number; first: number | null; last: number | null }>(
    sql`SELECT status, count(*) AS n, min(finished_at) AS first, max(finished_at) AS last FROM jobs WHERE experiment_id = ${id} GROUP BY status`,
  );
  const c: Record<string, number> = { done: 0, failed: 0, running: 0, queued: 0, cancelled: 0, skipped: 0 };
  for (const r of rows) c[r.status] = r.n;
  const total = rows.reduce((s, r) => s + r.n, 0);
  const finished = c.done + c.failed + c.skipped;
  // The rate is measured from this run's start, so a resumed run's earlier jobs do not inflate it.
  const finishedThisRun = e.startedAt
    ? (db.get<{ n: number }>(
        sql`SELECT count(*) AS n FROM jobs WHERE experiment_id = ${id} AND status IN ('done','failed') AND finished_at >= ${e.startedAt}`,
      )?.n ?? 0)
    : 0;
  const elapsed = e.startedAt ? now - e.startedAt : 0;
  const left = c.queued + c.running;
  const etaMs = finishedThisRun > 0 && elapsed > 0 ? Math.round((elapsed / finishedThisRun) * left) : left === 0 ? 0 : null;
  return {
    status: e.status,
    total,
    planned: e.plannedJobs,
    ...(c as Omit<Progress, "status" | "error" | "total" | "planned" | "fraction" | "etaMs" | "batches" | "waitingForBatch" | "inFlight">),
    error: e.error ?? null,
    fraction: total ? finished / total : 1,
    etaMs,
    batches: batchesOfExperiment(db, id).map(batchState),
    waitingForBatch: parkedJobs(db, id),
    inFlight: readActivity(db, id, now),
  };
}
