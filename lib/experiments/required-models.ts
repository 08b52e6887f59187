/**
 * Before an experiment is created: every model role its tasks call must have a model configured
 * (environment or Admin → Models), so a launch never creates jobs that no model can run.
 */
import type { Db } from "@/db/client";
import { parseExperimentConfig, type ExperimentConfig } from "@/lib/experiments/config";
import { resolveModelConfig } from "@/lib/llm/config";
import { getTask } from "@/lib/tasks/registry";
import { ASSISTANTS } from "@/lib/assistants/registry";
import { InvalidInputError } from "@/lib/errors";

/** The model roles an experiment calls: the assistant, the simulator and judge its tasks use, the embedding role when it retrieves densely. */
export function modelRolesOf(config: ExperimentConfig): string[] {
  const roles = new Set<string>(["assistant"]);
  for (const name of config.tasks) {
    const task = getTask(name, "config.tasks");
    for (const est of [task.estimate(config), task.pairs?.estimate(config)]) {
      if (!est) continue;
      if (est["user-simulator"] > 0) roles.add("user-simulator");
      if (est.judge > 0) roles.add("judge");
    }
  }
  // The run-wide retriever matters only to methods that retrieve: a Mem-PAL preset run of Vanilla alone needs no embedding model.
  if (config.retriever === "dense" && config.methods.some((m) => retrievesRunWide(m.name))) roles.add("embedding");
  // HiCUPID's RAG settings choose their retriever per method.
  if (config.methods.some((m) => m.options?.retriever === "dense")) roles.add("embedding");
  return [...roles];
}

const retrievesRunWide = (name: string): boolean => ASSISTANTS.find((a) => a.id === name)?.usesRetriever ?? false;

/** Throws for the first model role the experiment needs and has none; the error names the role and how to set it. */
export function requireModels(db: Db, rawConfig: unknown): void {
  const config = parseExperimentConfig(rawConfig);
  for (const r of modelRolesOf(config)) {
    try {
      resolveModelConfig(db, r);
    } catch (e) {
      // A preset's protocol needs the role: say so before anything is created.
      if (config.preset && e instanceof InvalidInputError)
        throw new InvalidInputError(`the ${config.preset} preset needs the ${r} role: ${e.message}`);
      throw e;
    }
  }
}
