/**
 * Experiment → jobs: one job per replicate × method × task × item, plus (dialogue) one pairwise judging
 * job per replicate × (reference, other method) × item in phase 1. A launch checks the config and the
 * limits (lib/experiments/limits.ts) and records the experiment with its config hash; its jobs (and the
 * data set's content hash) are created afterwards in chunks (./prepare.ts). Bad input changes nothing.
 */
import { checkDisplayName } from "@/lib/display-name";
import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { datasets, experiments } from "@/db/schema";
import { NotFoundError } from "@/lib/errors";
import { configHash, parseExperimentConfig } from "@/lib/experiments/config";
import { checkLaunchRate, checkLaunchSize, getExperimentLimits } from "@/lib/experiments/limits";
import { prepareJobsSync } from "./prepare";
import { writeLaunchRecord } from "./run-record";
import { PENDING_HASH, countJobs, planItems, type MethodCheck } from "./plan";

export * from "./plan";

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
  // The rule of data set and campaign names: one line of visible text (no CR/LF, U+202E, U+0001).
  const name = checkDisplayName("name", input.name);
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
      // The run record starts with the launch: the roles' endpoints and models as they are now, the preset and its overrides.
      writeLaunchRecord(db, id);
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
