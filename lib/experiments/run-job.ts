/**
 * One job of an experiment, run: its task with the job's model (the ledger origin), the method's
 * assistant and the outputs of earlier phases; what comes back stores its result, its failure, its
 * release (the spend guard paused the run) or its parking (its judge calls wait for a batch,
 * ./judge-batch.ts), for the lane to run in the transaction that claims its next job (./lanes.ts).
 */
import { and, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { jobs } from "@/db/schema";
import { methodKey, type ExperimentConfig } from "@/lib/experiments/config";
import { getTask } from "@/lib/tasks/registry";
import type { AssistantPort, ModelPort } from "@/lib/tasks/ports";
import type { Lang } from "@/lib/llm/types";
import { recordCalls, type LedgerRow } from "@/lib/llm/ledger";
import { ModelCallError } from "@/lib/llm/errors";
import type { CollectedCall, ModelClient } from "@/lib/llm/client";
import { RunPausedError, type SpendGuard } from "@/lib/llm/spend-guard";
import { completeJob, failJob, releaseJob, renewLease, type ClaimedJob } from "./lease";
import type { LaneEvent } from "./lanes";
import { parkJob, type JudgeBatching } from "./judge-batch";
import { PAIR_SEP } from "./create";

export type BoundModel = ModelPort & {
  usage(): Record<string, number>;
  /** Ledger rows the job's calls left to be written with its result (cache hits; see ModelClient.deferringHits). */
  takeDeferredHits(): LedgerRow[];
};

export type WorkerDeps = {
  /** The model client bound to one job (its ledger origin), the experiment's model settings and the run's spend guard. */
  model(jobId: number, config: ExperimentConfig, guard?: SpendGuard, collect?: (call: CollectedCall) => void): BoundModel;
  /**
   * The run's own model handle (job-model.ts runHandle, the experiment as origin): the Batch API of its
   * judge batches and its requests in flight (the run's activity). There is no raw client here: every
   * model call a run makes carries its role parameters.
   */
  runModel(experimentId: number, config: ExperimentConfig): ModelClient;
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
    guard?: SpendGuard;
  }): Promise<AssistantPort>;
};

/** What the jobs of one run share. */
export type RunContext = {
  db: Db;
  experimentId: number;
  datasetId: number;
  config: ExperimentConfig;
  lang: Lang;
  deps: WorkerDeps;
  guard: SpendGuard;
  worker: string;
  leaseMs: number;
  /** Judge calls sent as batches (config judgeBatch), or null. */
  batching: JudgeBatching | null;
};

/** The run's job runner: see LaneOptions.runOne. */
export function jobRunner(run: RunContext): (job: ClaimedJob) => Promise<() => LaneEvent | null> {
  const { db, experimentId, config, lang, deps, guard, worker, leaseMs, batching } = run;
  const exp = { id: experimentId, datasetId: run.datasetId };
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
  return async (job) => {
    const heartbeat = setInterval(() => renewLease(db, job.id, worker, leaseMs), Math.max(50, leaseMs / 3));
    let model: BoundModel | undefined;
    let collecting: ReturnType<JudgeBatching["model"]> | null = null;
    // A collecting pass whose judge calls were deferred is parked until its batch is in; its outcome is
    // thrown away, and so are its cache hits (the pass after the batch records its own).
    const park = () => {
      model?.takeDeferredHits();
      parkJob(db, job.id, worker);
      return null;
    };
    try {
      const task = getTask(job.task);
      if (batching?.on()) {
        collecting = batching.model(
          deps.model(job.id, config, guard, (c) => batching.collect(c)),
          deps.model(job.id, config, guard),
        );
        model = collecting;
      } else model = deps.model(job.id, config, guard);
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
            guard,
          });
        },
        jobOutput: outputOf(job.replicate),
        memo,
      };
      const item = { itemKey: job.itemKey, userKey: job.userKey ?? "" };
      const outcome = isPair
        ? await task.pairs!.run(ctx, item, ...(job.method.split(PAIR_SEP) as [string, string]))
        : await task.run(ctx, item);
      if (collecting?.deferred()) return park;
      const m = model;
      // usage() and the deferred cache hits are read in the same synchronous block that writes them.
      return () => (completeJob(db, job.id, worker, outcome, m.usage(), m.takeDeferredHits()) ? { jobId: job.id, status: "done" } : null);
    } catch (e) {
      if (collecting?.deferred() && !(e instanceof RunPausedError)) return park;
      const m = model;
      const msg = e instanceof Error ? e.message : String(e);
      // A guard that stopped (tripped, or the experiment paused or cancelled) explains whatever failed after it.
      if (e instanceof RunPausedError || guard.reason !== null) {
        // Stopped by the spend guard before its next attempt: the job waits for the run to be resumed
        // (a cancelled experiment's job is cancelled: ./lease.ts).
        return () => {
          recordCalls(db, m?.takeDeferredHits() ?? []);
          return releaseJob(db, job.id, worker) ? { jobId: job.id, status: "queued" } : null;
        };
      }
      return () => {
        recordCalls(db, m?.takeDeferredHits() ?? []);
        // An endpoint that refused the request itself refuses it again: no further attempt is paid for.
        const s = failJob(db, job.id, worker, msg, e instanceof ModelCallError && e.deterministic ? 0 : config.maxAttempts);
        return s === "lost" ? null : { jobId: job.id, status: s, error: msg };
      };
    } finally {
      clearInterval(heartbeat);
    }
  };
}
