import type { Command } from "commander";
import type { TopCommand } from "./summaries";

/**
 * Every command group, one line each: the top-level commands it defines and how to load it. A group
 * is loaded only when one of its commands runs (`pal stats` never loads the model client or the
 * experiments engine), so start-up stays short.
 */
export type CommandGroup = { commands: readonly TopCommand[]; load: () => Promise<(program: Command) => void> };

export const COMMAND_GROUPS: readonly CommandGroup[] = [
  { commands: ["user"], load: async () => (await import("./user")).registerUser },
  { commands: ["import", "export", "stats"], load: async () => (await import("./data")).registerData },
  { commands: ["demo"], load: async () => (await import("./demo")).registerDemo },
  { commands: ["metrics"], load: async () => (await import("./metrics")).registerMetrics },
  { commands: ["memory"], load: async () => (await import("./memory")).registerMemory },
  { commands: ["models"], load: async () => (await import("./models")).registerModels },
  { commands: ["campaign"], load: async () => (await import("./campaign")).registerCampaign },
  { commands: ["run"], load: async () => (await import("./run")).registerRun },
  { commands: ["backup", "restore"], load: async () => (await import("./backup")).registerBackup },
];
