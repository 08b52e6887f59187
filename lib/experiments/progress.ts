/** Live progress of an experiment: job counts by status and an ETA from the rate of this run so far. */
import type { Db } from "@/db/client";
import { stmt } from "@/db/statements";
import { getExperimentRow } from "./control";
import { batchesOfExperiment, parkedJobs } from "./judge-batch";
import { batchState, type BatchState } from "@/lib/llm/batch";
import { readActivity } from "./activity";
import { pauseHint } from "@/lib/llm/diagnose";
import type { RunActivity } from "./activity-text";

export type Progress = {
  status: string;
  /** Why the run stopped (a spend-guard pause, a failure), when it says. */
  error: string | null;
  /** For a pause on an unreachable endpoint: what Admin → Models → Test connection would say (issue 44.3). */
  hint: string | null;
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
  // From the running counts per group (kept by triggers as jobs change), not from the jobs: the poll's cost
  // does not grow with the experiment.
  const c = stmt(
    db,
    `SELECT coalesce(sum(done), 0) AS done, coalesce(sum(failed), 0) AS failed, coalesce(sum(running), 0) AS running,
     coalesce(sum(queued), 0) AS queued, coalesce(sum(cancelled), 0) AS cancelled, coalesce(sum(skipped), 0) AS skipped
     FROM experiment_groups WHERE experiment_id = ?`,
  ).get(id) as Record<"done" | "failed" | "running" | "queued" | "cancelled" | "skipped", number>;
  const total = c.done + c.failed + c.running + c.queued + c.cancelled + c.skipped;
  const finished = c.done + c.failed + c.skipped;
  // The rate is measured from this run's start, so a resumed run's earlier jobs do not inflate it.
  const finishedThisRun = e.startedAt ? c.done + c.failed - (e.finishedAtStart ?? 0) : 0;
  const elapsed = e.startedAt ? now - e.startedAt : 0;
  const left = c.queued + c.running;
  const etaMs = finishedThisRun > 0 && elapsed > 0 ? Math.round((elapsed / finishedThisRun) * left) : left === 0 ? 0 : null;
  return {
    status: e.status,
    total,
    planned: e.plannedJobs,
    ...(c as Omit<
      Progress,
      "status" | "error" | "hint" | "total" | "planned" | "fraction" | "etaMs" | "batches" | "waitingForBatch" | "inFlight"
    >),
    error: e.error ?? null,
    hint: e.status === "paused" ? pauseHint(e.error) : null,
    fraction: total ? finished / total : 1,
    etaMs,
    batches: batchesOfExperiment(db, id).map(batchState),
    waitingForBatch: parkedJobs(db, id),
    inFlight: readActivity(db, id, now),
  };
}
