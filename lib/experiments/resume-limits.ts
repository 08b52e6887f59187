/**
 * A resume is a launch again (issue 40): it queues jobs and may create those not yet made, so it must fit
 * the limits a launch fits (./limits.ts). Above all for an imported run, whose config and jobs a stranger
 * wrote (lib/bundles/import.ts): a bundle of `repeats` 20 must not run 20 repeats on this lab's keys
 * because someone pressed Resume. The size is that of the config as the preparer would plan it, or of
 * the jobs it holds if more.
 */
import type { Db } from "@/db/client";
import { InvalidInputError, NotFoundError } from "@/lib/errors";
import { parseExperimentConfig } from "./config";
import { checkLaunchSize, getExperimentLimits } from "./limits";
import { countJobs, planItems } from "./plan";

export function checkResumeLimits(db: Db, id: number): void {
  const e = db.$client
    .prepare("SELECT e.config, e.dataset_id AS datasetId, d.kind FROM experiments e JOIN datasets d ON d.id = e.dataset_id WHERE e.id = ?")
    .get(id) as { config: string; datasetId: number; kind: string } | undefined;
  if (!e) throw new NotFoundError(`experiment ${id} does not exist`);
  // A config that no longer parses (or never did: an imported one) is refused, naming its field.
  let raw: unknown;
  try {
    raw = JSON.parse(e.config);
  } catch {
    throw new InvalidInputError(`experiment ${id}: its config is not JSON, so it cannot be resumed`);
  }
  const config = parseExperimentConfig(raw);
  const limits = getExperimentLimits(db);
  const size = { methods: config.methods.length, repeats: config.repeats, jobs: 0 };
  // The cheap checks first, as a launch does.
  checkLaunchSize(size, limits);
  const have = db.$client.prepare("SELECT count(*) FROM jobs WHERE experiment_id = ?").pluck().get(id) as number;
  size.jobs = Math.max(have, countJobs(planItems(db, e.datasetId, config, e.kind)));
  checkLaunchSize(size, limits);
}
