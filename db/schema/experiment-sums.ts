import { sqliteTable, integer, real, text, primaryKey } from "drizzle-orm/sqlite-core";
import { experiments } from "./experiments";
import { memoryVersions } from "./memory";

/**
 * Running sums of an experiment's jobs per group (method × task × replicate × phase), so its progress and
 * results are read from a few hundred rows instead of every job. The status counts are kept by SQLite
 * triggers on `jobs` (migration 0024_experiment_sums_triggers), whatever code changes a job; `scored`
 * counts the done jobs whose scores were added to `experiment_score_sums` (lib/experiments/aggregates.ts):
 * equal to `done` when the sums are complete.
 */
export const experimentGroups = sqliteTable(
  "experiment_groups",
  {
    experimentId: integer("experiment_id")
      .notNull()
      .references(() => experiments.id, { onDelete: "cascade" }),
    method: text("method").notNull(),
    task: text("task").notNull(),
    replicate: integer("replicate").notNull(),
    phase: integer("phase").notNull(),
    queued: integer("queued").notNull().default(0),
    running: integer("running").notNull().default(0),
    done: integer("done").notNull().default(0),
    failed: integer("failed").notNull().default(0),
    cancelled: integer("cancelled").notNull().default(0),
    skipped: integer("skipped").notNull().default(0),
    scored: integer("scored").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.experimentId, t.method, t.task, t.replicate, t.phase] })],
);

/** Additive score statistics of a group's done jobs, one row per key (the task's aggregate names them). */
export const experimentScoreSums = sqliteTable(
  "experiment_score_sums",
  {
    experimentId: integer("experiment_id")
      .notNull()
      .references(() => experiments.id, { onDelete: "cascade" }),
    method: text("method").notNull(),
    task: text("task").notNull(),
    replicate: integer("replicate").notNull(),
    phase: integer("phase").notNull(),
    key: text("key").notNull(),
    value: real("value").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.experimentId, t.method, t.task, t.replicate, t.phase, t.key] })],
);

/** The answering ledger (llm_calls of the jobs) summed per method and role, kept by a trigger on `llm_calls`. */
export const experimentLedgerSums = sqliteTable(
  "experiment_ledger_sums",
  {
    experimentId: integer("experiment_id")
      .notNull()
      .references(() => experiments.id, { onDelete: "cascade" }),
    method: text("method").notNull(),
    role: text("role").notNull(),
    ok: integer("ok").notNull().default(0),
    hits: integer("hits").notNull().default(0),
    requests: integer("requests").notNull().default(0),
    promptTokens: integer("prompt_tokens").notNull().default(0),
    completionTokens: integer("completion_tokens").notNull().default(0),
    paidPromptTokens: integer("paid_prompt_tokens").notNull().default(0),
    paidCompletionTokens: integer("paid_completion_tokens").notNull().default(0),
    bad: integer("bad").notNull().default(0),
    badPromptTokens: integer("bad_prompt_tokens").notNull().default(0),
    badCompletionTokens: integer("bad_completion_tokens").notNull().default(0),
    /** Requests that reached the endpoint with no usage reported (timeouts, drops): tokens unknown. */
    unknown: integer("unknown").notNull().default(0),
    /** Replies cut off at max_tokens (finish_reason "length"). */
    cutOff: integer("cut_off").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.experimentId, t.method, t.role] })],
);

/**
 * The ledger of building each memory version (llm_calls with its memory_version_id) summed per role, kept
 * by a trigger on `llm_calls` (migration 0028): an experiment's "memory build" cost reads these rows of the
 * versions it used, not their calls.
 */
export const memoryLedgerSums = sqliteTable(
  "memory_ledger_sums",
  {
    versionId: integer("version_id")
      .notNull()
      .references(() => memoryVersions.id, { onDelete: "cascade" }),
    role: text("role").notNull(),
    ok: integer("ok").notNull().default(0),
    hits: integer("hits").notNull().default(0),
    requests: integer("requests").notNull().default(0),
    promptTokens: integer("prompt_tokens").notNull().default(0),
    completionTokens: integer("completion_tokens").notNull().default(0),
    paidPromptTokens: integer("paid_prompt_tokens").notNull().default(0),
    paidCompletionTokens: integer("paid_completion_tokens").notNull().default(0),
    bad: integer("bad").notNull().default(0),
    badPromptTokens: integer("bad_prompt_tokens").notNull().default(0),
    badCompletionTokens: integer("bad_completion_tokens").notNull().default(0),
    /** Requests that reached the endpoint with no usage reported (timeouts, drops): tokens unknown. */
    unknown: integer("unknown").notNull().default(0),
    /** Replies cut off at max_tokens (finish_reason "length"). */
    cutOff: integer("cut_off").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.versionId, t.role] })],
);
