/**
 * The worker: runs an experiment's jobs with a concurrency limit until none is left, claiming each with a
 * lease it keeps renewing. The server starts one (lib/experiments/server-worker.ts); `pal run` runs its own in
 * process: its lanes (./lanes.ts) claim the jobs, each run by ./run-job.ts, and an experiment that batches
 * its judge calls waits for its batches between rounds (./judge-batch.ts). Pause and cancel are read
 * between jobs. Results are stored per job, so a crash loses at most the jobs in flight, and their model
 * calls are answered from the model client's cache when they run again.
 */
import { refreshRunRecord } from "./run-record";
import os from "node:os";
import { and, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { datasets, experiments, type ExperimentStatus } from "@/db/schema";
import { ConflictError } from "@/lib/errors";
import { parseExperimentConfig } from "@/lib/experiments/config";
import { datasetHash } from "@/lib/experiments/dataset-hash";
import type { Lang } from "@/lib/llm/types";
import type { ModelClient } from "@/lib/llm/client";
import { envNumber } from "@/lib/config";
import { leaseHolderId } from "@/lib/lease-holder";
import { SpendGuard } from "@/lib/llm/spend-guard";
import type { BatchRow } from "@/lib/llm/batch";
import { releaseDeadLocalLeases } from "./lease";
import { ACTIVITY_EVERY_MS, clearActivity, writeActivity } from "./activity";
import { experimentStopped, runLanes, type LaneEvent } from "./lanes";
import { batchesOfExperiment, judgeBatching, settleCancelledBatches } from "./judge-batch";
import { paidSoFar } from "./results";
import { getExperimentRow } from "./control";
import { jobRunner, type WorkerDeps } from "./run-job";
import { withExternalRun } from "@/lib/assistants/external/run-scope";
import { recordExternalServices } from "./external-services";

export type { BoundModel, WorkerDeps } from "./run-job";

export type WorkerOptions = {
  worker?: string;
  concurrency?: number;
  leaseMs?: number;
  onProgress?: (event: LaneEvent) => void;
  /**
   * Judge calls sent as batches (config judgeBatch): wait for an open batch, polling every `batchPollMs`
   * (`pal run`). Without it the run returns "running" while its batch is out, and the server's worker
   * comes back to poll it (lib/experiments/server-worker.ts).
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
 * While a run goes on, every ACTIVITY_EVERY_MS, the client's requests in flight are written for the
 * progress (./activity.ts). Returns the end of the watch.
 */
function watchRun(db: Db, experimentId: number, worker: string, client: ModelClient): () => void {
  const timeoutsBefore = client.stats.timeouts;
  const tick = () => writeActivity(db, experimentId, worker, { ...client.inFlight(), timeouts: client.stats.timeouts - timeoutsBefore });
  tick();
  const timer = setInterval(tick, ACTIVITY_EVERY_MS);
  return () => {
    clearInterval(timer);
    clearActivity(db, experimentId, worker);
  };
}

/**
 * Runs until the experiment has no claimable job left (or is paused/cancelled); returns its status then
 * ("running" when it waits for a judge batch and `waitForBatch` is off).
 */
export async function runExperiment(db: Db, experimentId: number, deps: WorkerDeps, opts: WorkerOptions = {}): Promise<ExperimentStatus> {
  const worker = opts.worker ?? workerId();
  const leaseMs = opts.leaseMs ?? envNumber("PAL_JOB_LEASE_MS", 60_000);
  const concurrency = Math.max(1, opts.concurrency ?? 8);
  const exp = getExperimentRow(db, experimentId);
  if (exp.status === "done" || exp.status === "cancelled" || exp.status === "paused") return exp.status;
  // Its jobs are still being created (lib/experiments/prepare.ts): running now would miss the rest.
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
    // The ETA's rate counts the jobs this run finishes: the count at its start is kept (./progress.ts).
    .set({
      status: "running",
      startedAt: Date.now(),
      finishedAtStart: sql`(SELECT coalesce(sum(done + failed), 0) FROM experiment_groups WHERE experiment_id = ${experimentId})`,
    })
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
    // A pause or cancel from anywhere holds before the next request of every job and memory build in
    // flight (the lanes only look before each claim, and one job can make many calls).
    stopped: () => (experimentStopped(db, experimentId) ? `the experiment was ${getExperimentRow(db, experimentId).status}` : null),
  });
  // Judge calls sent as batches: see ./judge-batch.ts.
  const batching = config.judgeBatch ? judgeBatching(db, experimentId) : null;
  // The run's handle: its judge batches and its activity (no raw client reaches a run).
  const runModel = deps.runModel(experimentId, config);
  const runOne = jobRunner({ db, experimentId, datasetId: exp.datasetId, config, lang, deps, guard, worker, leaseMs, batching });

  // What each external method's service says it calls outside the run: for the run card.
  await recordExternalServices(db, experimentId, config);
  const stopWatch = watchRun(db, experimentId, worker, runModel);
  // External methods' keys are valid while this run runs here (a call made after its request was answered
  // goes through the run's handle, under its spend guard), refused once it stops or returns.
  const external = {
    id: `experiment ${experimentId}`,
    model: runModel.withGuard(guard),
    stopped: () => experimentStopped(db, experimentId),
  };
  try {
    const early = await withExternalRun(external, async (): Promise<ExperimentStatus | null> => {
      for (;;) {
        await runLanes(db, experimentId, { worker, leaseMs, concurrency, runOne, onProgress: opts.onProgress });
        if (!batching) break;
        if (experimentStopped(db, experimentId)) {
          // Cancelled with a batch out: it is cancelled at the endpoint, and what it answered anyway is read into the ledger.
          if (getExperimentRow(db, experimentId).status === "cancelled") await settleBatchesOfCancelled(db, experimentId, runModel, opts);
          break;
        }
        // The lanes ran out of work: parked jobs wait for their judge calls' batch, sent as far as the spend cap allows.
        const step = await batching.step(runModel, guard);
        if (step === "none" || step === "paused") break;
        if (opts.onBatch) for (const b of batchesOfExperiment(db, experimentId).filter((x) => x.updatedAt !== null)) opts.onBatch(b);
        if (step === "waiting") {
          if (!opts.waitForBatch) return "running";
          await new Promise((r) => setTimeout(r, opts.batchPollMs ?? batchPollMs()));
        }
      }
      return null;
    });
    if (early) return early;
  } finally {
    stopWatch();
  }

  const now = getExperimentRow(db, experimentId).status;
  const ended = now === "paused" || now === "cancelled" ? now : "done";
  if (ended === "done")
    db.update(experiments).set({ status: "done", finishedAt: Date.now() }).where(eq(experiments.id, experimentId)).run();
  // What the run did, read from the ledger once as it stops (not per call): models served, parameters sent, the audit.
  refreshRunRecord(db, experimentId);
  return ended;
}

/**
 * A cancelled experiment's judge batches: cancelled at the endpoint and read into the ledger once they
 * stop; with `waitForBatch` (`pal run`), polled until none is out, else left to the server's worker.
 */
async function settleBatchesOfCancelled(db: Db, experimentId: number, client: ModelClient, opts: WorkerOptions): Promise<void> {
  for (;;) {
    const open = await settleCancelledBatches(db, client, experimentId);
    if (opts.onBatch) for (const b of batchesOfExperiment(db, experimentId).filter((x) => x.updatedAt !== null)) opts.onBatch(b);
    if (!open.length || !opts.waitForBatch) return;
    await new Promise((r) => setTimeout(r, opts.batchPollMs ?? batchPollMs()));
  }
}
