/**
 * The worker: runs an experiment's jobs with a concurrency limit until none is left, claiming each with a
 * lease it keeps renewing. The server starts one (lib/jobs/server-worker.ts); `pal run` runs its own in
 * process; its lanes (./lanes.ts) claim and store the jobs. Pause and cancel are read between jobs. Results are stored per job, so a crash loses at most the
 * jobs in flight, and their model calls are answered from the model client's cache when they run again.
 */
import os from "node:os";
import { and, eq, inArray } from "drizzle-orm";
import type { Db } from "@/db/client";
import { datasets, experiments, jobs, type ExperimentStatus } from "@/db/schema";
import { ConflictError } from "@/lib/errors";
import { methodKey, parseExperimentConfig, type ExperimentConfig } from "@/lib/experiments/config";
import { datasetHash } from "@/lib/experiments/dataset-hash";
import { getTask } from "@/lib/tasks/registry";
import type { AssistantPort, ModelPort } from "@/lib/tasks/ports";
import type { Lang } from "@/lib/judges/types";
import { recordCalls, type LedgerRow } from "@/lib/llm/ledger";
import { ModelCallError } from "@/lib/llm/errors";
import { ModelClient, type CollectedCall } from "@/lib/llm/client";
import { envNumber } from "@/lib/config";
import { leaseHolderId } from "@/lib/lease-holder";
import { RunPausedError, SpendGuard } from "@/lib/llm/spend-guard";
import { completeJob, failJob, releaseDeadLocalLeases, releaseJob, renewLease, type ClaimedJob } from "./lease";
import { experimentStopped, runLanes, type LaneEvent } from "./lanes";
import { batchesOfExperiment, judgeBatching, parkJob, type JudgeBatching } from "./judge-batch";
import type { BatchRow } from "@/lib/llm/batch";
import { paidSoFar } from "./results";
import { getExperimentRow } from "./control";
import { PAIR_SEP } from "./create";

export type BoundModel = ModelPort & {
  usage(): Record<string, number>;
  /** Ledger rows the job's calls left to be written with its result (cache hits; see ModelClient.deferringHits). */
  takeDeferredHits(): LedgerRow[];
};

export type WorkerDeps = {
  /** The model client bound to one job (its ledger origin), the experiment's model settings and the run's spend guard. */
  model(jobId: number, config: ExperimentConfig, guard?: SpendGuard, collect?: (call: CollectedCall) => void): BoundModel;
  /** The model client itself, for the Batch API of experiments that batch their judge calls (default: a new one). */
  client?: ModelClient;
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

export type WorkerOptions = {
  worker?: string;
  concurrency?: number;
  leaseMs?: number;
  onProgress?: (event: LaneEvent) => void;
  /**
   * Judge calls sent as batches (config judgeBatch): wait for an open batch, polling every `batchPollMs`
   * (`pal run`). Without it the run returns "running" while its batch is out, and the server's worker
   * comes back to poll it (lib/jobs/server-worker.ts).
   */
  waitForBatch?: boolean;
  batchPollMs?: number;
  /** Each open judge batch's state after it was submitted or polled. */
  onBatch?: (batch: BatchRow) => void;
};

/** Seconds between polls of a batch (experiments' judge batches and campaign judge runs alike). */
export const batchPollMs = () => envNumber("PAL_BATCH_POLL_MS", 30_000);

export const workerId = leaseHolderId;

/**
 * Runs until the experiment has no claimable job left (or is paused/cancelled); returns its status then
 * ("running" when it waits for a judge batch and `waitForBatch` is off).
 */
export async function runExperiment(db: Db, experimentId: number, deps: WorkerDeps, opts: WorkerOptions = {}): Promise<ExperimentStatus> {
  const worker = opts.worker ?? workerId();
  const leaseMs = opts.leaseMs ?? 60_000;
  const concurrency = Math.max(1, opts.concurrency ?? 8);
  const exp = getExperimentRow(db, experimentId);
  if (exp.status === "done" || exp.status === "cancelled" || exp.status === "paused") return exp.status;
  // Its jobs are still being created (lib/jobs/prepare.ts): running now would miss the rest.
  if (exp.status === "preparing") throw new ConflictError(`experiment ${experimentId} is still being prepared; run it once it is queued`);
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

  // Spending safety: the run pauses itself when its attempts keep failing or it reaches its spend cap.
  const guard = new SpendGuard({
    maxCalls: config.spendCap?.calls ?? null,
    maxUsd: config.spendCap?.usd ?? null,
    prices: config.prices,
    spent: config.spendCap ? paidSoFar(db, experimentId, config.prices) : undefined,
    onTrip: (reason) =>
      db
        .update(experiments)
        .set({ status: "paused", error: `paused by its spend guard: ${reason}` })
        .where(and(eq(experiments.id, experimentId), inArray(experiments.status, ["queued", "running"])))
        .run(),
  });
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
  // Judge calls sent as batches: see ./judge-batch.ts.
  const batching = config.judgeBatch ? judgeBatching(db, experimentId) : null;
  let batchClient: ModelClient | undefined;
  /** Runs one job and returns what stores its result (or its failure): see LaneOptions.runOne. */
  const runOne = async (job: ClaimedJob): Promise<() => LaneEvent | null> => {
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
      if (e instanceof RunPausedError) {
        // Stopped by the spend guard before its next attempt: the job waits for the run to be resumed.
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

  for (;;) {
    await runLanes(db, experimentId, { worker, leaseMs, concurrency, runOne, onProgress: opts.onProgress });
    if (!batching || experimentStopped(db, experimentId)) break;
    // The lanes ran out of work: parked jobs wait for their judge calls' batch.
    const step = await batching.step((batchClient ??= deps.client ?? ModelClient.create(db)));
    if (step === "none") break;
    if (opts.onBatch) for (const b of batchesOfExperiment(db, experimentId).filter((x) => x.updatedAt !== null)) opts.onBatch(b);
    if (step === "waiting") {
      if (!opts.waitForBatch) return "running";
      await new Promise((r) => setTimeout(r, opts.batchPollMs ?? batchPollMs()));
    }
  }

  const now = getExperimentRow(db, experimentId).status;
  if (now === "paused" || now === "cancelled") return now;
  db.update(experiments).set({ status: "done", finishedAt: Date.now() }).where(eq(experiments.id, experimentId)).run();
  return "done";
}
