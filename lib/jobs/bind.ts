/**
 * The one place where the experiments engine meets the model client (lib/llm) and the method registry
 * (lib/assistants). Until those land on this branch, running jobs refuses with a clear message; planning,
 * dry runs, results and control work without them.
 */
import { AppError } from "@/lib/errors";
import { getDb } from "@/db/client";
import type { WorkerDeps } from "./worker";
import { startServerWorker } from "./server-worker";

export class ModelClientUnavailableError extends AppError {
  constructor() {
    super("running experiments needs the model client (lib/llm) and the method registry (lib/assistants), not in this build yet", 503, "unavailable", 3);
  }
}

/** Whether jobs can run in this build (the server starts its worker only then). */
export function modelClientAvailable(): boolean {
  return false;
}

/** Throws before anything is created when jobs could not run. */
export function requireModelClient(): void {
  if (!modelClientAvailable()) throw new ModelClientUnavailableError();
}

export function productionDeps(): WorkerDeps {
  return {
    model: () => {
      throw new ModelClientUnavailableError();
    },
    assistant: async () => {
      throw new ModelClientUnavailableError();
    },
  };
}

/** Method names the registry knows; undefined = accept any (no registry yet). */
export function knownMethod(): ((m: string) => boolean) | undefined {
  return undefined;
}

/** Starts the server's experiments worker (instrumentation.ts), when jobs can run in this build. */
export function startExperimentsWorker(): void {
  if (!modelClientAvailable()) return;
  startServerWorker(getDb(), productionDeps, { concurrency: Number(process.env.PAL_WORKER_CONCURRENCY) || 8 });
}

/** The method names a user may pick in the browser; null = free text (no registry in this build). */
export function methodChoices(): string[] | null {
  return null;
}
