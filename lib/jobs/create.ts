/**
 * Experiment → jobs: one job per replicate × method × task × item, plus (dialogue) one pairwise judging
 * job per replicate × (reference, other method) × item in phase 1. A launch checks the config and the
 * limits (lib/experiments/limits.ts) and records the experiment with its config hash; its jobs (and the
 * data set's content hash) are created afterwards in chunks (./prepare.ts). Bad input changes nothing.
 */
import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { datasets, experiments } from "@/db/schema";
import { InvalidInputError, NotFoundError } from "@/lib/errors";
import { configHash, methodKey, parseExperimentConfig, type ExperimentConfig, type MethodSpec } from "@/lib/experiments/config";
import { checkLaunchRate, checkLaunchSize, getExperimentLimits } from "@/lib/experiments/limits";
import { getTask } from "@/lib/tasks/registry";
import type { TaskItem } from "@/lib/tasks/types";
import { prepareJobsSync } from "./prepare";

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
  for (const { task, items, pairs } of plan.tasks) {
    for (let r = 0; r < config.repeats; r++) {
      for (const m of config.methods)
        for (const it of items) yield { replicate: r, method: methodKey(m), task, itemKey: it.itemKey, userKey: it.userKey, phase: 0 };
      if (pairs) {
        for (const m of config.methods) {
          if (methodKey(m) === config.reference) continue;
          for (const it of items)
            yield {
              replicate: r,
              method: pairMethod(config.reference!, methodKey(m)),
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

export type CreateExperimentInput = {
  name: string;
  datasetId: number;
  config: unknown;
  createdBy?: number | null;
  knownMethod?: MethodCheck;
  /**
   * "enforce" (the default): the launch must fit the admin's limits (methods, repeats, jobs; and, for a
   * user, launches per minute). "override": `pal run --over-limit`, run by whoever owns the database.
   */
  limits?: "enforce" | "override";
};

/**
 * Checks the config against the data set and the limits and records the experiment as "preparing",
 * with the number of jobs it plans; no job is written here, so the request answers at once whatever
 * the size. The jobs are created in chunks off the request path (./prepare.ts), after which the
 * experiment is "queued". Bad input and a refused launch change nothing.
 */
export function launchExperiment(db: Db, input: CreateExperimentInput): { id: number; jobs: number } {
  const name = input.name.trim();
  if (!name) throw new InvalidInputError("name: an experiment needs a name");
  const ds = db.select().from(datasets).where(eq(datasets.id, input.datasetId)).get();
  if (!ds) throw new NotFoundError(`data set ${input.datasetId} does not exist`);
  const config = parseExperimentConfig(input.config);
  const enforce = input.limits !== "override";
  const limits = getExperimentLimits(db);
  // The cheap checks first: a config with thousands of methods is refused before any item is read.
  const size = { methods: config.methods.length, repeats: config.repeats, jobs: 0 };
  if (enforce) checkLaunchSize(size, limits);
  const plan = planItems(db, ds.id, config, ds.kind, input.knownMethod);
  size.jobs = countJobs(plan);
  if (enforce) checkLaunchSize(size, limits);
  return db.$client
    .transaction(() => {
      if (enforce && input.createdBy != null) checkLaunchRate(db, input.createdBy, limits);
      const id = db
        .insert(experiments)
        .values({
          name,
          datasetId: ds.id,
          // Hashing the data set's rows takes up to a second for a large one: the preparer does it, off
          // the request path. The data cannot change meanwhile: this row already holds the data set.
          datasetHash: PENDING_HASH,
          config,
          configHash: configHash(config),
          status: "preparing",
          plannedJobs: size.jobs,
          createdBy: input.createdBy ?? null,
        })
        .returning({ id: experiments.id })
        .get().id;
      return { id, jobs: size.jobs };
    })
    .immediate();
}

/**
 * Launch and create every job now, in chunked transactions (`pal run`, tests, benchmarks: callers that
 * run the experiment themselves right after). The experiment is "queued" when this returns.
 */
export function createExperiment(db: Db, input: CreateExperimentInput): { id: number; jobs: number } {
  const created = launchExperiment(db, input);
  prepareJobsSync(db, created.id);
  return created;
}
