/**
 * The worker: runs an experiment's jobs with a concurrency limit until none is left, claiming each with a
 * lease it keeps renewing. The server starts one (lib/jobs/server-worker.ts); `pal run` runs its own in
 * process. Pause and cancel are read between jobs. Results are stored per job, so a crash loses at most the
 * jobs in flight, and their model calls are answered from the model client's cache when they run again.
 */
import os from "node:os";
import { and, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { stmt } from "@/db/statements";
import { datasets, experiments, jobs, type ExperimentStatus } from "@/db/schema";
import { ConflictError } from "@/lib/errors";
import { methodKey, parseExperimentConfig, type ExperimentConfig } from "@/lib/experiments/config";
import { datasetHash } from "@/lib/experiments/dataset-hash";
import { getTask } from "@/lib/tasks/registry";
import type { AssistantPort, ModelPort } from "@/lib/tasks/ports";
import type { Lang } from "@/lib/judges/types";
import { claimJob, completeJob, failJob, releaseDeadLocalLeases, renewLease } from "./lease";
import { getExperimentRow } from "./control";
import { PAIR_SEP } from "./create";

export type BoundModel = ModelPort & { usage(): Record<string, number> };

export type WorkerDeps = {
  /** The model client bound to one job (its ledger origin) and the experiment's model settings. */
  model(jobId: number, config: ExperimentConfig): BoundModel;
  /** One method of the registry for one user, memory built up to the session before `sessionSeq`. */
  assistant(args: {
    datasetId: number;
    method: ExperimentConfig["methods"][number];
    config: ExperimentConfig;
    userKey: string;
    sessionSeq: number;
    jobId: number;
    replicate: number;
    /** The experiment the job belongs to (its results count the cost of the memory it answers from). */
    experimentId: number;
  }): Promise<AssistantPort>;
};

export type WorkerOptions = {
  worker?: string;
  concurrency?: number;
  leaseMs?: number;
  onProgress?: (event: { jobId: number; status: "done" | "failed" | "queued"; error?: string }) => void;
};

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export function workerId(): string {
  return `${os.hostname()}:${process.pid}:${Math.random().toString(36).slice(2, 8)}`;
}

/** Runs until the experiment has no claimable job left (or is paused/cancelled); returns its status then. */
export async function runExperiment(db: Db, experimentId: number, deps: WorkerDeps, opts: WorkerOptions = {}): Promise<ExperimentStatus> {
  const worker = opts.worker ?? workerId();
  const leaseMs = opts.leaseMs ?? 60_000;
  const concurrency = Math.max(1, opts.concurrency ?? 8);
  const exp = getExperimentRow(db, experimentId);
  if (exp.status === "done" || exp.status === "cancelled" || exp.status === "paused") return exp.status;
  const ds = db.select().from(datasets).where(eq(datasets.id, exp.datasetId)).get()!;
  // A first start follows creation, which just hashed the data (and the data set cannot be replaced or
  // deleted while the experiment exists); a resumed run checks that nothing changed underneath.
  if (exp.startedAt !== null && datasetHash(db, ds.id, ds.kind) !== exp.datasetHash) {
    throw new ConflictError(
      `experiment ${experimentId}: data set "${ds.name}" changed since the experiment was created (content hash differs)`,
    );
  }
  const config = parseExperimentConfig(exp.config);
  releaseDeadLocalLeases(db, experimentId, os.hostname());
  const lang: Lang = ds.language === "zh" ? "zh" : "en";
  db.update(experiments)
    .set({ status: "running", startedAt: Date.now() })
    .where(and(eq(experiments.id, experimentId), inArray(experiments.status, ["queued", "running", "failed"])))
    .run();

  const stopped = () => {
    const s = (stmt(db, "SELECT status FROM experiments WHERE id = ?").get(experimentId) as { status: ExperimentStatus } | undefined)
      ?.status;
    return s === "paused" || s === "cancelled";
  };
  const outputOf = (replicate: number) => (method: string, itemKey: string) =>
    db
      .select({ output: jobs.output })
      .from(jobs)
      .where(
        and(
          eq(jobs.experimentId, experimentId),
          eq(jobs.replicate, replicate),
          eq(jobs.method, method),
          eq(jobs.itemKey, itemKey),
          eq(jobs.status, "done"),
        ),
      )
      .get()?.output ?? null;

  const memo = new Map<string, unknown>();
  const runOne = async (job: NonNullable<ReturnType<typeof claimJob>>) => {
    const heartbeat = setInterval(() => renewLease(db, job.id, worker, leaseMs), Math.max(50, leaseMs / 3));
    try {
      const task = getTask(job.task);
      const model = deps.model(job.id, config);
      const isPair = job.method.includes(PAIR_SEP);
      const spec = config.methods.find((m) => methodKey(m) === job.method);
      const ctx = {
        db,
        datasetId: exp.datasetId,
        lang,
        config,
        replicate: job.replicate,
        jobId: job.id,
        method: job.method,
        model,
        assistant: (userKey: string, sessionSeq: number) => {
          if (!spec) throw new Error(`job ${job.id}: method ${job.method} is not in the config`);
          return deps.assistant({
            datasetId: exp.datasetId,
            method: spec,
            config,
            userKey,
            sessionSeq,
            jobId: job.id,
            replicate: job.replicate,
            experimentId: exp.id,
          });
        },
        jobOutput: outputOf(job.replicate),
        memo,
      };
      const item = { itemKey: job.itemKey, userKey: job.userKey ?? "" };
      const outcome = isPair
        ? await task.pairs!.run(ctx, item, ...(job.method.split(PAIR_SEP) as [string, string]))
        : await task.run(ctx, item);
      if (completeJob(db, job.id, worker, outcome, model.usage())) opts.onProgress?.({ jobId: job.id, status: "done" });
    } catch (e) {
      const msg = e instanceof Error ? e.message : String(e);
      const s = failJob(db, job.id, worker, msg, config.maxAttempts);
      if (s !== "lost") opts.onProgress?.({ jobId: job.id, status: s, error: msg });
    } finally {
      clearInterval(heartbeat);
    }
  };

  const lane = async () => {
    for (;;) {
      if (stopped()) return;
      const job = claimJob(db, experimentId, worker, leaseMs);
      if (job) {
        await runOne(job);
        continue;
      }
      // Nothing claimable: done, or waiting on jobs other lanes/workers hold (their leases may run out).
      const open = db.get<{ n: number }>(
        sql`SELECT count(*) AS n FROM jobs WHERE experiment_id = ${experimentId} AND status IN ('queued','running')`,
      )!.n;
      if (open === 0) return;
      await sleep(Math.min(250, leaseMs / 4));
    }
  };
  await Promise.all(Array.from({ length: concurrency }, lane));

  const now = getExperimentRow(db, experimentId).status;
  if (now === "paused" || now === "cancelled") return now;
  db.update(experiments).set({ status: "done", finishedAt: Date.now() }).where(eq(experiments.id, experimentId)).run();
  return "done";
}
