/** Every task, one list: the CLI, the config, the worker and the pages read it. */
import { requirementTask } from "./requirement";
import { solutionTask } from "./solution";
import { dialogueTask } from "./dialogue/task";
import { hicupidTask } from "./hicupid/task";
import { locomoTask, longmemevalTask } from "./convqa/task";
import type { TaskDef } from "./types";
import type { TaskName } from "./names";
import { InvalidInputError } from "@/lib/errors";

export const TASKS: readonly TaskDef[] = [requirementTask, solutionTask, dialogueTask, hicupidTask, locomoTask, longmemevalTask];

export function getTask(name: string, where = "task"): TaskDef {
  const t = TASKS.find((x) => x.name === name);
  if (!t)
    throw new InvalidInputError(
      `${where}: unknown or not yet available task "${name}" (available: ${TASKS.map((x) => x.name).join(", ")})`,
    );
  return t;
}

export function taskNames(): TaskName[] {
  return TASKS.map((t) => t.name);
}
