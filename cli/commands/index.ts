import type { Command } from "commander";
import { registerUser } from "./user";
import { registerMetrics } from "./metrics";
import { registerData } from "./data";
import { registerDemo } from "./demo";
import { registerRun } from "./run";
import { registerMemory, registerModels } from "./memory";
import { registerCampaign } from "./campaign";
import { registerBackup } from "./backup";

/** Every command group registers itself here; one line per group. */
export const commands: Array<(program: Command) => void> = [
  registerUser,
  registerData,
  registerDemo,
  registerMetrics,
  registerMemory,
  registerModels,
  registerCampaign,
  registerRun,
  registerBackup,
];
