/**
 * What the server runs for experiments (instrumentation.ts, and the experiments routes as a fallback):
 * the preparer that creates a launched experiment's jobs and the worker that runs them over the
 * production dependencies.
 */
import { getDb } from "@/db/client";
import { envNumber } from "@/lib/config";
import { productionDeps } from "./deps";
import { startPreparer, startServerWorker } from "./server-worker";

/** Starts the server's experiments worker. */
export function startExperimentsWorker(): void {
  // Jobs of launched experiments are created even when no model can run them yet.
  startPreparer(getDb());
  startServerWorker(getDb(), productionDeps, { concurrency: envNumber("PAL_WORKER_CONCURRENCY", 8) || 8 });
}
