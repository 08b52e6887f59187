/** Pause, cancel and resume: state changes of an experiment; the worker reads them between jobs. */
import { and, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { experiments, jobs, type ExperimentStatus } from "@/db/schema";
import { ConflictError, NotFoundError } from "@/lib/errors";
import { PARKED } from "./judge-batch";
import { checkResumeLimits } from "./resume-limits";

export function getExperimentRow(db: Db, id: number) {
  const e = db.select().from(experiments).where(eq(experiments.id, id)).get();
  if (!e) throw new NotFoundError(`experiment ${id} does not exist`);
  return e;
}

function transition(db: Db, id: number, from: ExperimentStatus[], to: ExperimentStatus, verb: string) {
  const e = getExperimentRow(db, id);
  if (!from.includes(e.status)) throw new ConflictError(`experiment ${id} is ${e.status}; it cannot be ${verb}`);
  db.update(experiments).set({ status: to }).where(eq(experiments.id, id)).run();
}

export function pauseExperiment(db: Db, id: number): void {
  transition(db, id, ["preparing", "queued", "running"], "paused", "paused");
}

/**
 * Cancels: queued jobs become cancelled; a job being worked on finishes or is dropped by its worker.
 * Immediate, as interruptRun: a deferred transaction that read the status, then lost the race for the write
 * lock to a running `pal run`'s commit, failed at once with "database is locked" (busy_timeout cannot wait
 * out a stale snapshot; the real-server test's cancel from another process hit it).
 */
export function cancelExperiment(db: Db, id: number): void {
  db.transaction(
    () => {
      transition(db, id, ["preparing", "queued", "running", "paused", "draft"], "cancelled", "cancelled");
      db.update(jobs)
        .set({ status: "cancelled", updatedAt: Date.now() })
        .where(and(eq(jobs.experimentId, id), eq(jobs.status, "queued")))
        .run();
      // Jobs parked for a judge batch (./judge-batch.ts) are no worker's: they are cancelled here too.
      db.update(jobs)
        .set({ status: "cancelled", worker: null, leaseUntil: null, updatedAt: Date.now() })
        .where(and(eq(jobs.experimentId, id), eq(jobs.status, "running"), eq(jobs.worker, PARKED)))
        .run();
      // A pause's reason ("paused by its spend guard: …") no longer describes a cancelled run.
      db.update(experiments).set({ finishedAt: Date.now(), error: null }).where(eq(experiments.id, id)).run();
    },
    { behavior: "immediate" },
  );
}

/**
 * `pal run` interrupted (Ctrl+C, SIGTERM): the experiment is paused, unless it stopped already, and the
 * jobs this process held go back to the queue, their attempt not counted (cancelled, in a cancelled
 * experiment). A paused experiment is no worker's: the server's worker does not take it over, and
 * `pal run --resume ID` or Resume on its page goes on where it stopped. Returns what it did.
 */
export function interruptRun(db: Db, id: number, worker: string): { status: ExperimentStatus; released: number } {
  // Immediate: it reads, then writes. A deferred one whose read another process's commit overtook (the
  // app's worker beside a CLI run) cannot take the write lock: Ctrl+C crashed with SQLITE_BUSY_SNAPSHOT.
  return db.transaction(
    () => {
      const e = getExperimentRow(db, id);
      const status = ["preparing", "queued", "running"].includes(e.status) ? "paused" : e.status;
      if (status !== e.status) db.update(experiments).set({ status }).where(eq(experiments.id, id)).run();
      const released = db.$client
        .prepare(
          `UPDATE jobs SET status = CASE WHEN ? = 'cancelled' THEN 'cancelled' ELSE 'queued' END, attempts = max(attempts - 1, 0),
         worker = NULL, lease_until = NULL, updated_at = ? WHERE experiment_id = ? AND worker = ? AND status = 'running'`,
        )
        .run(status, Date.now(), id, worker).changes;
      return { status, released };
    },
    { behavior: "immediate" },
  );
}

/**
 * Queues a paused, failed, cancelled or crashed ("running" with no live worker) experiment again. Finished
 * jobs stay; cancelled jobs are queued again; failed jobs are retried when `retryFailed`. One stopped
 * before all its jobs were created goes back to "preparing" (lib/experiments/prepare.ts creates the rest).
 * Refused past the launch limits as a launch is (./resume-limits.ts), unless `limits` is "override".
 */
export function resumeExperiment(db: Db, id: number, opts: { retryFailed?: boolean; limits?: "enforce" | "override" } = {}): void {
  // As a launch: within the limits, unless `pal run --over-limit` (whoever runs pal owns the database).
  if (opts.limits !== "override") checkResumeLimits(db, id);
  // Immediate, for the reason cancelExperiment gives: it reads the status, then writes.
  db.transaction(
    () => {
      transition(db, id, ["paused", "failed", "cancelled", "running", "queued", "done"], "queued", "resumed");
      const again: Array<"cancelled" | "failed"> = opts.retryFailed ? ["cancelled", "failed"] : ["cancelled"];
      db.update(jobs)
        .set({ status: "queued", attempts: 0, error: null, updatedAt: Date.now() })
        .where(and(eq(jobs.experimentId, id), inArray(jobs.status, again)))
        .run();
      db.update(experiments).set({ finishedAt: null, error: null }).where(eq(experiments.id, id)).run();
      const e = getExperimentRow(db, id);
      const have = db.get<{ n: number }>(sql`SELECT count(*) AS n FROM jobs WHERE experiment_id = ${id}`)!.n;
      if (e.plannedJobs !== null && have < e.plannedJobs)
        db.update(experiments).set({ status: "preparing" }).where(eq(experiments.id, id)).run();
    },
    { behavior: "immediate" },
  );
}
