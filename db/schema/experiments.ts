import { sqliteTable, integer, real, text, index, uniqueIndex } from "drizzle-orm/sqlite-core";
import { sql } from "drizzle-orm";
import { createdAt } from "./common";
import { datasets } from "./datasets";
import { users } from "./auth";
import { memoryVersions } from "./memory";

export const EXPERIMENT_STATUSES = ["draft", "preparing", "queued", "running", "paused", "done", "failed", "cancelled"] as const;
export type ExperimentStatus = (typeof EXPERIMENT_STATUSES)[number];

/**
 * An experiment: data set × users × methods × tasks × model settings, run `repeats` times. The data set
 * is restricted (it cannot be deleted or replaced while an experiment refers to it) and its content
 * hash is recorded so a resumed run can tell that the data under it is still the same.
 */
export const experiments = sqliteTable(
  "experiments",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    name: text("name").notNull(),
    datasetId: integer("dataset_id")
      .notNull()
      .references(() => datasets.id, { onDelete: "restrict" }),
    /** sha256 of the data set's rows when the experiment was created. */
    datasetHash: text("dataset_hash").notNull(),
    /** The validated config (lib/experiments/config.ts): users, methods with options, tasks, models, repeats, seed. */
    config: text("config", { mode: "json" }).$type<Record<string, unknown>>().notNull(),
    /** sha256 of the canonical config JSON. */
    configHash: text("config_hash").notNull(),
    status: text("status", { enum: EXPERIMENT_STATUSES }).notNull().default("draft"),
    /**
     * How many jobs the launch planned. A launch records the experiment as "preparing" and the server
     * creates its jobs in chunks (lib/experiments/prepare.ts) until there are this many; then it is "queued".
     */
    plannedJobs: integer("planned_jobs"),
    error: text("error"),
    createdBy: integer("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
    startedAt: integer("started_at"),
    finishedAt: integer("finished_at"),
    /**
     * A tie margin applied after the run to the pairwise dialogue results (the W/T/L counts are re-derived
     * from the stored mean scores); null: the margin the experiment ran with. Set from a campaign's
     * tie-margin calibration, which `pairwiseTieMarginSource` names.
     */
    pairwiseTieMargin: real("pairwise_tie_margin"),
    pairwiseTieMarginSource: text("pairwise_tie_margin_source"),
    /** Jobs finished (done or failed) when the current run started: the ETA's rate counts only this run's. */
    finishedAtStart: integer("finished_at_start"),
  },
  (t) => [index("experiments_created_by").on(t.createdBy, t.createdAt)],
);

/**
 * What a run really did (issue 31's run record): per role the endpoint, the model asked for and the
 * models the server said it served, the parameters sent, the data set's hash, the preset and its
 * overrides, the project's version. Written at launch and kept up to date as calls complete
 * (lib/experiments/run-record.ts); tables, figures, exports and bundles read the model and the
 * protocol from here, never from today's settings.
 */
export const experimentRunRecords = sqliteTable("experiment_run_records", {
  experimentId: integer("experiment_id")
    .primaryKey()
    .references(() => experiments.id, { onDelete: "cascade" }),
  /** The record as JSON (its shape: lib/experiments/run-record.ts, versioned by its own `version` field). */
  record: text("record", { mode: "json" }).$type<Record<string, unknown>>().notNull(),
  updatedAt: integer("updated_at").notNull(),
});

/**
 * An experiment that came in as a bundle (lib/bundles): from which file and run, exported when and by
 * which version, imported when and by whom. `content_digest` names what it holds, so a bundle imported
 * twice (or a second export of the same run) finds the experiment it made instead of making another,
 * and a bundle that claims another run's uid with other content cannot squat it (issue 40).
 */
export const experimentImports = sqliteTable(
  "experiment_imports",
  {
    experimentId: integer("experiment_id")
      .primaryKey()
      .references(() => experiments.id, { onDelete: "cascade" }),
    /** The run the bundle says it holds (its pal_bundle.runUid): the sender's word, so not an identity (issue 40). */
    runUid: text("run_uid").notNull(),
    /**
     * A digest of what the bundle holds (lib/bundles/content-digest.ts), computed here on import: the
     * identity by which a bundle imported again finds the experiment it made. Null: imported before it existed.
     */
    contentDigest: text("content_digest"),
    /** The experiment's status in the bundle: a fact about the source run; an imported run arrives stopped (issue 40). */
    sourceStatus: text("source_status"),
    /** The bundle's file name as given at import. */
    source: text("source").notNull(),
    sourceExperimentId: integer("source_experiment_id").notNull(),
    exportedAt: integer("exported_at").notNull(),
    /** The exporting PAL Studio's version (package version and commit). */
    exportedVersion: text("exported_version").notNull(),
    /** Whether the data set's rows came with the bundle (a copy of the rows the run read), not from this database. */
    datasetFromBundle: integer("dataset_from_bundle", { mode: "boolean" }).notNull().default(false),
    importedAt: integer("imported_at").notNull(),
    importedBy: integer("imported_by").references(() => users.id, { onDelete: "set null" }),
  },
  (t) => [uniqueIndex("experiment_imports_content_digest").on(t.contentDigest), index("experiment_imports_run_uid").on(t.runUid)],
);

/**
 * A replay of an imported run (`pal bundle verify`, the experiment page's Verify): when, and how many of
 * its jobs came out identical. The page's badge is the latest row; `report` keeps what differed (bounded).
 */
export const experimentVerifications = sqliteTable(
  "experiment_verifications",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    experimentId: integer("experiment_id")
      .notNull()
      .references(() => experiments.id, { onDelete: "cascade" }),
    verifiedAt: integer("verified_at").notNull(),
    jobs: integer("jobs").notNull(),
    identical: integer("identical").notNull(),
    /** Everything identical: jobs, memory, paper tables, no request without a bundled reply. */
    ok: integer("ok", { mode: "boolean" }).notNull(),
    /** The differences (jobs, missing replies, memory, tables), at most a few hundred of each (lib/bundles/verifications.ts). */
    report: text("report", { mode: "json" }).notNull(),
    verifiedBy: integer("verified_by").references(() => users.id, { onDelete: "set null" }),
  },
  (t) => [index("experiment_verifications_experiment").on(t.experimentId, t.verifiedAt)],
);

export const JOB_STATUSES = ["queued", "running", "done", "failed", "cancelled", "skipped"] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

/**
 * One item of one experiment (one method × task × replicate × item). Results are stored per item so
 * a restart skips what is done; a lease (worker, lease_until) lets a crashed "running" job be taken again.
 * Phase orders the work: pairwise dialogue judgments (phase 1) wait for the dialogues (phase 0).
 */
export const jobs = sqliteTable(
  "jobs",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    experimentId: integer("experiment_id")
      .notNull()
      .references(() => experiments.id, { onDelete: "cascade" }),
    replicate: integer("replicate").notNull().default(0),
    /** A method name, or "a~b" for a pairwise judgment of two methods' dialogues. */
    method: text("method").notNull(),
    task: text("task").notNull(),
    /** Task item key, e.g. "0003/0003_sample27/topic-1" or a HiCUPID qa id. */
    itemKey: text("item_key").notNull(),
    userKey: text("user_key"),
    phase: integer("phase").notNull().default(0),
    status: text("status", { enum: JOB_STATUSES }).notNull().default("queued"),
    attempts: integer("attempts").notNull().default(0),
    worker: text("worker"),
    startedAt: integer("started_at"),
    leaseUntil: integer("lease_until"),
    finishedAt: integer("finished_at"),
    error: text("error"),
    /** What the assistant saw (prompt inputs, never references). */
    input: text("input", { mode: "json" }).$type<unknown>(),
    output: text("output", { mode: "json" }).$type<unknown>(),
    retrieved: text("retrieved", { mode: "json" }).$type<unknown>(),
    /** Model calls this job made: {calls, cacheHits, promptTokens, completionTokens}. */
    usage: text("usage", { mode: "json" }).$type<Record<string, number>>(),
    starred: integer("starred", { mode: "boolean" }).notNull().default(false),
    /** Why the item was starred (a case study's caption) and free tags to filter the case studies by. */
    starNote: text("star_note"),
    starTags: text("star_tags", { mode: "json" }).$type<string[]>(),
    /** The item's leading metric (lib/experiments/aggregates.ts leadingScore), written with its scores: the Items table sorts and filters by it. */
    score: real("score"),
    /**
     * The item as a person reads it: the PAL-Set topic's user query or the HiCUPID question, and whose it is,
     * clipped (lib/experiments/item-titles.ts). Written when the job is created; "" when the item has none;
     * null for a job written without one (the migration filled those before it; the Items table fills a page's).
     */
    title: text("title"),
    updatedAt: integer("updated_at"),
  },
  (t) => [
    uniqueIndex("jobs_identity").on(t.experimentId, t.replicate, t.method, t.task, t.itemKey),
    index("jobs_status").on(t.experimentId, t.status, t.phase),
    // The case studies read only the starred jobs.
    index("jobs_starred")
      .on(t.experimentId)
      .where(sql`starred = 1`),
    // The Items table picks a page of ids from this index alone: every column it filters or sorts on.
    index("jobs_items").on(t.experimentId, t.score, t.task, t.method, t.status, t.replicate, t.itemKey, t.starred),
    // The text filter's words of fewer than 3 characters (too short for the trigram index) match titles from this index alone.
    index("jobs_title").on(t.experimentId, t.title),
  ],
);

/**
 * Scores of one job, one row per scorer and version: re-scoring (a new judge, a fixed parser) adds rows
 * and keeps the history. `values` holds the numbers the tables aggregate; `detail` the judge's analyses.
 */
export const jobScores = sqliteTable(
  "job_scores",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    jobId: integer("job_id")
      .notNull()
      .references(() => jobs.id, { onDelete: "cascade" }),
    scorer: text("scorer").notNull(),
    version: integer("version").notNull().default(1),
    values: text("values", { mode: "json" }).$type<Record<string, number | null>>().notNull(),
    detail: text("detail", { mode: "json" }).$type<unknown>(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("job_scores_identity").on(t.jobId, t.scorer, t.version)],
);

/**
 * The memory versions an experiment's methods answered from (one per method label and user), so its
 * results can count what building them cost (their ledger rows, llm_calls.memory_version_id) beside
 * the answering calls. A version is shared: every experiment that used it lists it.
 */
export const experimentMemoryVersions = sqliteTable(
  "experiment_memory_versions",
  {
    experimentId: integer("experiment_id")
      .notNull()
      .references(() => experiments.id, { onDelete: "cascade" }),
    /** The method's label in the experiment (methodKey). */
    method: text("method").notNull(),
    versionId: integer("version_id")
      .notNull()
      .references(() => memoryVersions.id, { onDelete: "cascade" }),
  },
  (t) => [uniqueIndex("experiment_memory_versions_identity").on(t.experimentId, t.method, t.versionId)],
);

export const MARK_COLOURS = ["need", "preference", "contradicts"] as const;
export type MarkColour = (typeof MARK_COLOURS)[number];

/**
 * A highlighted passage of a case study (Mem-PAL Figure 4's colours): a researcher selects text in one
 * block of an item (a card of the user's information, a turn of a method's dialogue, an answer) and
 * marks it as matching the user's background/need, fitting the preference, or contradicting it, with
 * an optional note. `block` names the block ("info:Background.age", "job:12:turn:3"); start/end are
 * character offsets into the block's text and `quote` the text itself, so a mark survives a re-render.
 * Marks belong to their author and are shown to the whole team.
 */
export const caseMarks = sqliteTable(
  "case_marks",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    experimentId: integer("experiment_id")
      .notNull()
      .references(() => experiments.id, { onDelete: "cascade" }),
    task: text("task").notNull(),
    itemKey: text("item_key").notNull(),
    block: text("block").notNull(),
    start: integer("start").notNull(),
    end: integer("end").notNull(),
    quote: text("quote").notNull(),
    colour: text("colour", { enum: MARK_COLOURS }).notNull(),
    note: text("note"),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
  },
  (t) => [index("case_marks_item").on(t.experimentId, t.task, t.itemKey)],
);

/**
 * What a process running an experiment is waiting for now, written every few seconds while it runs
 * (lib/experiments/activity.ts): its model requests in flight and since when the oldest waits, so a run
 * whose model takes minutes per reply shows it is working, in `pal run` and on the experiment page,
 * whichever process runs it. A row not refreshed for a while belongs to a process that is gone.
 */
export const runActivity = sqliteTable(
  "run_activity",
  {
    experimentId: integer("experiment_id")
      .notNull()
      .references(() => experiments.id, { onDelete: "cascade" }),
    /** The lease holder id of the process (lib/lease-holder.ts). */
    worker: text("worker").notNull(),
    callsInFlight: integer("calls_in_flight").notNull(),
    oldestStartedAt: integer("oldest_started_at"),
    /** Requests of this process that ran into their timeout since it took the experiment up. */
    timeouts: integer("timeouts").notNull().default(0),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [uniqueIndex("run_activity_identity").on(t.experimentId, t.worker)],
);
