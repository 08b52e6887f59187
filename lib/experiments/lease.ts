/**
 * Job leases. A worker claims a job by setting worker, started_at and lease_until in one statement; it
 * renews the lease while it works. A "running" job whose lease ran out (its worker crashed or was killed)
 * is claimable again, so nothing finished is lost and nothing unfinished is stuck. Phase 1 jobs are only
 * claimed once no phase 0 job of the experiment is unfinished.
 */
import { and, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { stmt, transact } from "@/db/statements";
import { jobs } from "@/db/schema";
import type { JobOutcome } from "@/lib/tasks/types";
import { recordCalls, type LedgerRow } from "@/lib/llm/ledger";
import { holderIsDeadLocal } from "@/lib/lease-holder";
import { addDoneJob, type GroupKey } from "./aggregates";

/** What the worker needs of a claimed job. */
export type ClaimedJob = Pick<
  typeof jobs.$inferSelect,
  "id" | "experimentId" | "replicate" | "method" | "task" | "itemKey" | "userKey" | "phase" | "attempts" | "status" | "worker"
>;

const json = (v: unknown) => (v === undefined || v === null ? null : JSON.stringify(v));

export function claimJob(db: Db, experimentId: number, worker: string, leaseMs: number, now = Date.now()): ClaimedJob | null {
  return db.transaction(
    () => {
      // The lowest phase with unfinished work is the only claimable one; each lookup walks the
      // (experiment, status, phase) index, so a claim costs the same at job 1 and job 100,000.
      const phase = (
        stmt(db, "SELECT min(phase) AS p FROM jobs WHERE experiment_id = ? AND status IN ('queued', 'running')").get(experimentId) as {
          p: number | null;
        }
      ).p;
      if (phase === null) return null;
      const row = (stmt(db, "SELECT id FROM jobs WHERE experiment_id = ? AND status = 'queued' AND phase = ? ORDER BY id LIMIT 1").get(
        experimentId,
        phase,
      ) ??
        stmt(
          db,
          "SELECT id FROM jobs WHERE experiment_id = ? AND status = 'running' AND phase = ? AND lease_until < ? ORDER BY id LIMIT 1",
        ).get(experimentId, phase, now)) as { id: number } | undefined;
      if (!row) return null;
      return stmt(
        db,
        `UPDATE jobs SET status = 'running', worker = ?, started_at = ?, lease_until = ?, attempts = attempts + 1, updated_at = ?
         WHERE id = ? RETURNING id, experiment_id AS experimentId, replicate, method, task, item_key AS itemKey, user_key AS userKey,
         phase, attempts, status, worker`,
      ).get(worker, now, now + leaseMs, now, row.id) as ClaimedJob;
    },
    { behavior: "immediate" },
  );
}

/** Extends the lease; false when the job is no longer this worker's (taken over, or cancelled). */
export function renewLease(db: Db, jobId: number, worker: string, leaseMs: number, now = Date.now()): boolean {
  const r = db
    .update(jobs)
    .set({ leaseUntil: now + leaseMs, updatedAt: now })
    .where(and(eq(jobs.id, jobId), eq(jobs.worker, worker), eq(jobs.status, "running")))
    .run();
  return r.changes === 1;
}

/** Stores the outcome and its score rows in one transaction; only while the job is still this worker's. */
export function completeJob(
  db: Db,
  jobId: number,
  worker: string,
  outcome: JobOutcome,
  usage: Record<string, number>,
  ledger: readonly LedgerRow[] = [],
  now = Date.now(),
): boolean {
  return transact(db, () => {
    // Written whatever becomes of the job: they record calls that were made.
    recordCalls(db, ledger);
    const g = stmt(
      db,
      `UPDATE jobs SET status = 'done', finished_at = ?, lease_until = NULL, error = NULL, input = ?, output = ?, retrieved = ?,
       usage = ?, updated_at = ? WHERE id = ? AND worker = ? AND status = 'running'
       RETURNING experiment_id AS experimentId, method, task, replicate, phase`,
    ).get(now, json(outcome.input), json(outcome.output), json(outcome.retrieved), json(usage), now, jobId, worker) as GroupKey | undefined;
    if (!g) return false;
    const insert = stmt(
      db,
      `INSERT INTO job_scores (job_id, scorer, version, "values", detail) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (job_id, scorer, version) DO UPDATE SET "values" = excluded."values", detail = excluded.detail`,
    );
    for (const s of outcome.scores) insert.run(jobId, s.scorer, s.version, JSON.stringify(s.values), json(s.detail));
    // The experiment's running sums (./aggregates.ts) take the job's scores in the same commit.
    addDoneJob(db, jobId, g);
    return true;
  });
}

function experimentCancelled(db: Db, jobId: number): boolean {
  const r = stmt(db, "SELECT e.status FROM jobs j JOIN experiments e ON e.id = j.experiment_id WHERE j.id = ?").get(jobId) as
    { status: string } | undefined;
  return r?.status === "cancelled";
}

/** A failed attempt: back to the queue while attempts remain, else recorded as failed with the error. */
export function failJob(
  db: Db,
  jobId: number,
  worker: string,
  error: string,
  maxAttempts: number,
  now = Date.now(),
): "queued" | "failed" | "cancelled" | "lost" {
  const job = db
    .select({ attempts: jobs.attempts })
    .from(jobs)
    .where(and(eq(jobs.id, jobId), eq(jobs.worker, worker), eq(jobs.status, "running")))
    .get();
  if (!job) return "lost";
  // A cancelled experiment's job is not queued for another attempt: nothing would run it but a resume.
  const status = job.attempts >= maxAttempts ? "failed" : experimentCancelled(db, jobId) ? "cancelled" : "queued";
  db.update(jobs)
    .set({ status, error, leaseUntil: null, finishedAt: status === "failed" ? now : null, updatedAt: now })
    .where(eq(jobs.id, jobId))
    .run();
  return status;
}

/**
 * A job its run stopped before it could finish (the spend guard paused the run, or the experiment was
 * paused): queued again, the attempt not counted; cancelled when the experiment was.
 */
export function releaseJob(db: Db, jobId: number, worker: string, now = Date.now()): boolean {
  const r = stmt(
    db,
    `UPDATE jobs SET status = CASE WHEN (SELECT status FROM experiments WHERE id = jobs.experiment_id) = 'cancelled' THEN 'cancelled' ELSE 'queued' END,
     attempts = max(attempts - 1, 0), worker = NULL, lease_until = NULL, updated_at = ?
     WHERE id = ? AND worker = ? AND status = 'running'`,
  ).run(now, jobId, worker);
  return r.changes === 1;
}

/**
 * Jobs held by a worker of this machine whose process is gone (killed, crashed) go back to the queue at
 * once, instead of waiting for their lease to run out. Workers on other machines keep their leases.
 */
export function releaseDeadLocalLeases(db: Db, experimentId: number, host: string, now = Date.now()): number {
  const held = db
    .select({ id: jobs.id, worker: jobs.worker })
    .from(jobs)
    .where(and(eq(jobs.experimentId, experimentId), eq(jobs.status, "running")))
    .all();
  let n = 0;
  for (const j of held) {
    if (!holderIsDeadLocal(j.worker ?? "", host)) continue;
    const r = db
      .update(jobs)
      .set({ status: "queued", worker: null, leaseUntil: null, updatedAt: now })
      .where(and(eq(jobs.id, j.id), eq(jobs.status, "running"), eq(jobs.worker, j.worker!)))
      .run();
    n += r.changes;
  }
  return n;
}
