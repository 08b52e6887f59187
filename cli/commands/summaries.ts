/**
 * The one-line description of every top-level command. `pal --help` prints these without loading
 * any command module (and so none of lib/); each module describes its own command with the same line.
 */
export const SUMMARIES = {
  user: "manage PAL Studio accounts",
  import: "import a published data set into the database",
  export: "write a data set out again",
  stats: "counts of a data set (users, samples, logs, turns, topics, candidateSolutions; or users, dialogues, turns, qa)",
  demo: "migrate the database and add the demo accounts and data sets where missing (keeps existing data)",
  metrics: "compute the papers' scores from files (no database needed)",
  memory: "build and inspect the memories of the assistant methods",
  models: "the defined endpoints and the model of each role (list, add, set, check)",
  methods: "external memory methods served over HTTP (list, add, remove, check, openapi)",
  campaign: "human-evaluation campaigns",
  run: "run an experiment (methods x tasks) to the end; progress on stderr, results on stdout",
  table:
    "an experiment's paper tables (Mem-PAL Tables 2-3, HiCUPID Table 3) as LaTeX, Markdown or CSV, beside the published rows; --experiments 3,5,7 for one table across several",
  bundle: "an experiment as one file another lab imports and replays offline (export, import, verify, card)",
  backup: "copy the database to a file with SQLite's online backup (safe while the server runs)",
  restore: "replace the database (PAL_DB) with a backup; refused while a process has it open",
} as const;

export type TopCommand = keyof typeof SUMMARIES;
