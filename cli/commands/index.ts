import type { Command } from "commander";
import type { TopCommand } from "./summaries";

/**
 * Every command group, one line each: the top-level commands it defines and how to load it. A group
 * is loaded only when one of its commands runs (`pal stats` never loads the model client or the
 * experiments engine), so start-up stays short.
 */
export type CommandGroup = {
  /** The module's file name: bin/pal.mjs bundles each group on its own under this name. */
  name: string;
  commands: readonly TopCommand[];
  load: () => Promise<(program: Command) => void>;
};

export const COMMAND_GROUPS: readonly CommandGroup[] = [
  { name: "user", commands: ["user"], load: async () => (await import("./user")).registerUser },
  { name: "data", commands: ["import", "export", "stats"], load: async () => (await import("./data")).registerData },
  { name: "demo", commands: ["demo"], load: async () => (await import("./demo")).registerDemo },
  { name: "metrics", commands: ["metrics"], load: async () => (await import("./metrics")).registerMetrics },
  { name: "memory", commands: ["memory"], load: async () => (await import("./memory")).registerMemory },
  { name: "models", commands: ["models"], load: async () => (await import("./models")).registerModels },
  { name: "campaign", commands: ["campaign"], load: async () => (await import("./campaign")).registerCampaign },
  { name: "methods", commands: ["methods"], load: async () => (await import("./methods")).registerMethods },
  { name: "run", commands: ["run"], load: async () => (await import("./run")).registerRun },
  { name: "table", commands: ["table"], load: async () => (await import("./table")).registerTable },
  { name: "bundle", commands: ["bundle"], load: async () => (await import("./bundle")).registerBundle },
  { name: "backup", commands: ["backup", "restore"], load: async () => (await import("./backup")).registerBackup },
];
