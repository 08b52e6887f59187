/**
 * The one place where the experiments engine meets the model client (lib/llm) and the method registry
 * (lib/assistants). Until those land on this branch, running jobs refuses with a clear message; planning,
 * dry runs, results and control work without them.
 */
import { AppError } from "@/lib/errors";
import type { WorkerDeps } from "./worker";

export class ModelClientUnavailableError extends AppError {
  constructor() {
    super("running experiments needs the model client (lib/llm) and the method registry (lib/assistants), not in this build yet", 503, "unavailable", 3);
  }
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
