/**
 * What a launch warns about before anything is sent (issue 40 item 14): a dialogue run on a PAL-Set data set
 * without Mem-PAL's per-user profile files runs its user simulator bare. The estimate (the New experiment
 * form), `pal run` and the run record at launch show it; the audit and the table caption repeat it.
 */
import type { Db } from "@/db/client";
import { bareSimulatorWarning, profileGaps } from "@/lib/tasks/dialogue/profile-gaps";
import type { ExperimentConfig } from "./config";

export function launchWarnings(db: Db, datasetId: number, kind: string, config: Pick<ExperimentConfig, "tasks" | "users">): string[] {
  if (kind !== "palset" || !config.tasks.includes("dialogue")) return [];
  const w = bareSimulatorWarning(profileGaps(db, datasetId, config.users));
  return w ? [w] : [];
}
