/**
 * Experiment → jobs: one job per replicate × method × task × item, plus (dialogue) one pairwise judging
 * job per replicate × (reference, other method) × item in phase 1. Created in one transaction with the
 * config hash and the data set's content hash; bad input changes nothing.
 */
import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { datasets, experiments, jobs } from "@/db/schema";
import { InvalidInputError, NotFoundError } from "@/lib/errors";
import { configHash, methodKey, parseExperimentConfig, type ExperimentConfig, type MethodSpec } from "@/lib/experiments/config";
import { datasetHash } from "@/lib/experiments/dataset-hash";
import { getTask } from "@/lib/tasks/registry";
import type { TaskItem } from "@/lib/tasks/types";

export type PlannedJob = { replicate: number; method: string; task: string; itemKey: string; userKey: string; phase: number };

export const PAIR_SEP = "~";

/** Checks one method of the config (known name, valid options); throws an error naming the field. */
export type MethodCheck = (m: MethodSpec, where: string) => void;

export function pairMethod(a: string, b: string): string {
  return `${a}${PAIR_SEP}${b}`;
}

/** Every job an experiment will run, in the order the worker takes them. */
export function planJobs(db: Db, datasetId: number, config: ExperimentConfig, kind: string, checkMethod?: MethodCheck): PlannedJob[] {
  for (const [i, m] of config.methods.entries()) checkMethod?.(m, `config.methods[${i}]`);
  const out: PlannedJob[] = [];
  for (const taskName of config.tasks) {
    const task = getTask(taskName, "config.tasks");
    if (task.datasetKind !== kind)
      throw new InvalidInputError(`config.tasks: task "${taskName}" needs a ${task.datasetKind} data set, this one is ${kind}`);
    const items: TaskItem[] = task.itemsFor ? task.itemsFor(db, datasetId, config) : task.items(db, datasetId, config.users);
    // A named user without items is named (an unknown id, or a user this task has nothing for).
    if (config.users !== "all") {
      const seen = new Set(items.map((i) => i.userKey));
      const missing = config.users.find((u) => !seen.has(u));
      if (missing) throw new InvalidInputError(`config.users: user "${missing}" has no ${taskName} items in this data set`);
    }
    if (!items.length) throw new InvalidInputError(`config.users: no items for task "${taskName}" among the selected users`);
    for (let r = 0; r < config.repeats; r++) {
      for (const m of config.methods)
        for (const it of items)
          out.push({ replicate: r, method: methodKey(m), task: taskName, itemKey: it.itemKey, userKey: it.userKey, phase: 0 });
      if (task.pairs) {
        for (const m of config.methods) {
          if (methodKey(m) === config.reference) continue;
          for (const it of items)
            out.push({
              replicate: r,
              method: pairMethod(config.reference!, methodKey(m)),
              task: taskName,
              itemKey: it.itemKey,
              userKey: it.userKey,
              phase: 1,
            });
        }
      }
    }
  }
  return out;
}

export type CreateExperimentInput = {
  name: string;
  datasetId: number;
  config: unknown;
  createdBy?: number | null;
  knownMethod?: MethodCheck;
};

export function createExperiment(db: Db, input: CreateExperimentInput): { id: number; jobs: number } {
  const name = input.name.trim();
  if (!name) throw new InvalidInputError("name: an experiment needs a name");
  const ds = db.select().from(datasets).where(eq(datasets.id, input.datasetId)).get();
  if (!ds) throw new NotFoundError(`data set ${input.datasetId} does not exist`);
  const config = parseExperimentConfig(input.config);
  const planned = planJobs(db, ds.id, config, ds.kind, input.knownMethod);
  const hash = datasetHash(db, ds.id, ds.kind);
  return db.transaction((tx) => {
    const id = tx
      .insert(experiments)
      .values({
        name,
        datasetId: ds.id,
        datasetHash: hash,
        config,
        configHash: configHash(config),
        status: "queued",
        createdBy: input.createdBy ?? null,
      })
      .returning({ id: experiments.id })
      .get().id;
    const CHUNK = 500;
    for (let i = 0; i < planned.length; i += CHUNK) {
      tx.insert(jobs)
        .values(planned.slice(i, i + CHUNK).map((p) => ({ experimentId: id, ...p })))
        .run();
    }
    return { id, jobs: planned.length };
  });
}
