import { sqliteTable, integer, text, index, uniqueIndex, type AnySQLiteColumn } from "drizzle-orm/sqlite-core";
import { createdAt } from "./common";
import { datasets } from "./datasets";

export const MEMORY_STATUSES = ["building", "complete", "failed"] as const;
export type MemoryStatus = (typeof MEMORY_STATUSES)[number];

/**
 * One memory of one method for one user, built with one set of settings. It is shared by every
 * task and experiment that uses the same (data set, user, method, settings_key); `settings` keeps
 * what the key was hashed from, so a version can be explained and rebuilt.
 */
export const memoryVersions = sqliteTable(
  "memory_versions",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    datasetId: integer("dataset_id")
      .notNull()
      .references(() => datasets.id, { onDelete: "cascade" }),
    userKey: text("user_key").notNull(),
    method: text("method").notNull(),
    /** sha256 of the canonical JSON in `settings`. */
    settingsKey: text("settings_key").notNull(),
    /** {options, retriever, models per role, prompt language}: everything the memory depends on. */
    settings: text("settings", { mode: "json" }).$type<Record<string, unknown>>().notNull(),
    /** Prompt language of the data set ("zh" | "en"): the run records which prompts were used. */
    language: text("language").notNull(),
    status: text("status", { enum: MEMORY_STATUSES }).notNull().default("building"),
    sessionsTotal: integer("sessions_total").notNull().default(0),
    sessionsDone: integer("sessions_done").notNull().default(0),
    error: text("error"),
    /**
     * The lease of the process building this version ("host:pid:nonce"), renewed while it builds: a
     * second builder (another process, or the same user asked twice) waits for it, and takes over once
     * lease_until has passed (the builder crashed) or its local process is gone.
     */
    builder: text("builder"),
    leaseUntil: integer("lease_until"),
    createdAt: createdAt(),
    updatedAt: integer("updated_at"),
  },
  (t) => [uniqueIndex("memory_versions_identity").on(t.datasetId, t.userKey, t.method, t.settingsKey)],
);

/**
 * One build step: the memory update for one session (seq in the user's timeline). A step left
 * `building` by a crash is rolled back (its entries deleted, its expirations undone) and redone.
 */
export const memorySteps = sqliteTable(
  "memory_steps",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    versionId: integer("version_id")
      .notNull()
      .references(() => memoryVersions.id, { onDelete: "cascade" }),
    seq: integer("seq").notNull(),
    /** PAL-Set sample id or HiCUPID dialogue id. */
    sessionKey: text("session_key").notNull(),
    status: text("status", { enum: MEMORY_STATUSES }).notNull().default("building"),
    error: text("error"),
    startedAt: createdAt(),
    finishedAt: integer("finished_at"),
  },
  (t) => [uniqueIndex("memory_steps_version_seq").on(t.versionId, t.seq)],
);

/**
 * A memory entry, stored once for the span of sessions in which it holds: visible when answering in
 * session j iff valid_from_seq <= j and (valid_to_seq is null or valid_to_seq > j). How the two
 * build phases of a session map to these numbers is documented in lib/memory/README.md.
 */
export const memoryEntries = sqliteTable(
  "memory_entries",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    versionId: integer("version_id")
      .notNull()
      .references(() => memoryVersions.id, { onDelete: "cascade" }),
    /** The step that wrote it. */
    stepId: integer("step_id")
      .notNull()
      .references(() => memorySteps.id, { onDelete: "cascade" }),
    /** The step that ended its validity, so a rolled-back step can undo that. */
    expiredByStepId: integer("expired_by_step_id").references((): AnySQLiteColumn => memorySteps.id, { onDelete: "set null" }),
    /** e.g. log, situation, background, topic_outline, principle, summary, record. */
    kind: text("kind").notNull(),
    /** Unique among the entries of one kind that are valid at the same time. */
    key: text("key").notNull(),
    content: text("content", { mode: "json" }).$type<unknown>().notNull(),
    validFromSeq: integer("valid_from_seq").notNull(),
    validToSeq: integer("valid_to_seq"),
    /** Cache keys of the model calls that produced it (the ledger rows the inspector links to); [] when none did. */
    callKeys: text("call_keys", { mode: "json" }).$type<string[]>().notNull().default([]),
    createdAt: createdAt(),
  },
  (t) => [
    index("memory_entries_lookup").on(t.versionId, t.kind, t.key),
    index("memory_entries_step").on(t.stepId),
    index("memory_entries_expired_by").on(t.expiredByStepId),
  ],
);

export const MEMORY_BUILD_STATUSES = ["running", "complete", "failed", "paused"] as const;
export type MemoryBuildStatus = (typeof MEMORY_BUILD_STATUSES)[number];

/**
 * A "build memory" request from the app: one method over one user or a whole data set, run in the
 * background of the server process. Progress (sessions done / total) is written here as it goes, so
 * a page can poll it and closing the page does not stop the build. A row left `running` by a server
 * that died is shown as interrupted; starting the same build again resumes it (the builder skips
 * complete sessions).
 */
export const memoryBuilds = sqliteTable(
  "memory_builds",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    datasetId: integer("dataset_id")
      .notNull()
      .references(() => datasets.id, { onDelete: "cascade" }),
    method: text("method").notNull(),
    /** The users asked for (every user of the data set when the request named none). */
    users: text("users", { mode: "json" }).$type<string[]>().notNull(),
    status: text("status", { enum: MEMORY_BUILD_STATUSES }).notNull().default("running"),
    sessionsTotal: integer("sessions_total").notNull().default(0),
    sessionsDone: integer("sessions_done").notNull().default(0),
    /** The session being built last ("<user>/<session key>"). */
    current: text("current"),
    error: text("error"),
    /** Process id of the server running it: a row still `running` under another pid was interrupted. */
    pid: integer("pid"),
    createdBy: integer("created_by"),
    createdAt: createdAt(),
    finishedAt: integer("finished_at"),
  },
  (t) => [index("memory_builds_dataset").on(t.datasetId)],
);
