/**
 * What an experiment runs, without writing anything: the items of each task of a config (checked
 * against the data set's kind and users), how many jobs they make, and the jobs in the order the
 * worker takes them. create.ts launches from it; prepare.ts writes its jobs in chunks.
 */
import type { Db } from "@/db/client";
import { InvalidInputError } from "@/lib/errors";
import { methodKey, referenceMethod, type ExperimentConfig, type MethodSpec } from "@/lib/experiments/config";
import { getTask } from "@/lib/tasks/registry";
import type { TaskItem } from "@/lib/tasks/types";

export type PlannedJob = { replicate: number; method: string; task: string; itemKey: string; userKey: string; phase: number };

export const PAIR_SEP = "~";

/** `experiments.dataset_hash` of a launch whose preparation has not hashed the data set yet. */
export const PENDING_HASH = "";

/** Checks one method of the config (known name, valid options); throws an error naming the field. */
export type MethodCheck = (m: MethodSpec, where: string) => void;

export function pairMethod(a: string, b: string): string {
  return `${a}${PAIR_SEP}${b}`;
}

/** The items of each task of a config: everything a plan needs, read and checked once. */
export type Plan = { config: ExperimentConfig; tasks: Array<{ task: string; items: TaskItem[]; pairs: boolean }> };

/** Reads and checks what an experiment will run (methods, tasks against the data set's kind, users); nothing is written. */
export function planItems(db: Db, datasetId: number, config: ExperimentConfig, kind: string, checkMethod?: MethodCheck): Plan {
  for (const [i, m] of config.methods.entries()) checkMethod?.(m, `config.methods[${i}]`);
  const tasks: Plan["tasks"] = [];
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
    tasks.push({ task: taskName, items, pairs: Boolean(task.pairs) });
  }
  return { config, tasks };
}

/** How many jobs a plan makes, without making them: per task, repeats × (methods + pairs) × items. */
export function countJobs(plan: Plan): number {
  const { methods, repeats } = plan.config;
  return plan.tasks.reduce((n, t) => n + repeats * t.items.length * (methods.length + (t.pairs ? methods.length - 1 : 0)), 0);
}

/** Every job of a plan, in the order the worker takes them (and the order they are created in). */
export function* planned(plan: Plan): Generator<PlannedJob> {
  const { config } = plan;
  const reference = referenceMethod(config);
  for (const { task, items, pairs } of plan.tasks) {
    for (let r = 0; r < config.repeats; r++) {
      for (const m of config.methods)
        for (const it of items) yield { replicate: r, method: methodKey(m), task, itemKey: it.itemKey, userKey: it.userKey, phase: 0 };
      if (pairs) {
        for (const m of config.methods) {
          if (methodKey(m) === reference) continue;
          for (const it of items)
            yield {
              replicate: r,
              method: pairMethod(reference, methodKey(m)),
              task,
              itemKey: it.itemKey,
              userKey: it.userKey,
              phase: 1,
            };
        }
      }
    }
  }
}

/** Every job an experiment will run, in the order the worker takes them. */
export function planJobs(db: Db, datasetId: number, config: ExperimentConfig, kind: string, checkMethod?: MethodCheck): PlannedJob[] {
  return [...planned(planItems(db, datasetId, config, kind, checkMethod))];
}
