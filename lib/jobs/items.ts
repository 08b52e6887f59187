/** Per-item views of an experiment: the job list and one job's drill-down with every score row. */
import { and, asc, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { jobs, jobScores } from "@/db/schema";
import { NotFoundError } from "@/lib/errors";

export function listJobs(db: Db, experimentId: number, opts: { limit?: number; offset?: number } = {}) {
  return db
    .select({ id: jobs.id, replicate: jobs.replicate, method: jobs.method, task: jobs.task, itemKey: jobs.itemKey, status: jobs.status, attempts: jobs.attempts, error: jobs.error, starred: jobs.starred })
    .from(jobs)
    .where(eq(jobs.experimentId, experimentId))
    .orderBy(asc(jobs.phase), asc(jobs.task), asc(jobs.itemKey), asc(jobs.method), asc(jobs.replicate))
    .limit(opts.limit ?? 500)
    .offset(opts.offset ?? 0)
    .all();
}

export function getJob(db: Db, experimentId: number, jobId: number) {
  const job = db.select().from(jobs).where(and(eq(jobs.experimentId, experimentId), eq(jobs.id, jobId))).get();
  if (!job) throw new NotFoundError(`experiment ${experimentId} has no job ${jobId}`);
  const scores = db.select().from(jobScores).where(eq(jobScores.jobId, jobId)).orderBy(asc(jobScores.scorer), asc(jobScores.version)).all();
  return { job, scores };
}
