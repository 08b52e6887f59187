import { sqliteTable, integer, text, index, uniqueIndex } from "drizzle-orm/sqlite-core";
import { datasets } from "./datasets";

/**
 * PAL-Set (Mem-PAL), see docs/data-formats.md. Every list keeps its original position so that export can
 * write the published JSON again, value for value; `extra` holds keys we do not model.
 */
export const palUsers = sqliteTable(
  "pal_users",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    datasetId: integer("dataset_id")
      .notNull()
      .references(() => datasets.id, { onDelete: "cascade" }),
    userKey: text("user_key").notNull(),
    position: integer("position").notNull(),
    name: text("name"),
    /** background.json entry, normalised to English keys ({name, gender, age, ..., personality}). */
    background: text("background", { mode: "json" }).$type<Record<string, unknown>>(),
    /** The raw per-user profile records as published (background, requirement, preference, ...). */
    profileRaw: text("profile_raw", { mode: "json" }).$type<Record<string, unknown>>(),
    /** Unknown top-level keys of the user object, kept for export. */
    extra: text("extra", { mode: "json" }).$type<Record<string, unknown>>(),
  },
  (t) => [uniqueIndex("pal_users_dataset_key").on(t.datasetId, t.userKey)],
);

/** A requirement type of a user (requirement.json + preference.json), e.g. work-2. */
export const palRequirementTypes = sqliteTable(
  "pal_requirement_types",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: integer("user_id")
      .notNull()
      .references(() => palUsers.id, { onDelete: "cascade" }),
    aspect: text("aspect").notNull(), // work | health | family | leisure
    typeKey: text("type_key").notNull(), // "work-2"
    requirementType: text("requirement_type"),
    preferencePos: text("preference_pos", { mode: "json" }).$type<string[]>(),
    preferenceNeg: text("preference_neg", { mode: "json" }).$type<string[]>(),
  },
  (t) => [uniqueIndex("pal_req_types_user_key").on(t.userId, t.typeKey)],
);

export const SPLITS = ["history", "query"] as const;

export const palSamples = sqliteTable(
  "pal_samples",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    datasetId: integer("dataset_id")
      .notNull()
      .references(() => datasets.id, { onDelete: "cascade" }),
    userId: integer("user_id")
      .notNull()
      .references(() => palUsers.id, { onDelete: "cascade" }),
    sampleKey: text("sample_key").notNull(),
    split: text("split", { enum: SPLITS }).notNull(),
    /** Index within its split array. */
    position: integer("position").notNull(),
    /** Index in the user's whole timeline (history then query). */
    seq: integer("seq").notNull(),
    dialogueTimestamp: text("dialogue_timestamp").notNull(),
    /** Parsed, epoch ms (timestamps carry no zone; read as UTC for ordering only). */
    dialogueAt: integer("dialogue_at"),
    /** situation.json entry for this sample, when imported. */
    situation: text("situation", { mode: "json" }).$type<Record<string, unknown>>(),
    logCount: integer("log_count").notNull().default(0),
    turnCount: integer("turn_count").notNull().default(0),
    topicCount: integer("topic_count").notNull().default(0),
    extra: text("extra", { mode: "json" }).$type<Record<string, unknown>>(),
  },
  (t) => [uniqueIndex("pal_samples_user_key").on(t.userId, t.sampleKey), index("pal_samples_dataset").on(t.datasetId, t.split)],
);

export const palLogs = sqliteTable(
  "pal_logs",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    sampleId: integer("sample_id")
      .notNull()
      .references(() => palSamples.id, { onDelete: "cascade" }),
    position: integer("position").notNull(),
    timestamp: text("timestamp").notNull(),
    at: integer("at"),
    /** Inferred log type (one of the 8 PAL-Set log types) where it can be told; null otherwise. */
    logType: text("log_type"),
    content: text("content").notNull(),
    extra: text("extra", { mode: "json" }).$type<Record<string, unknown>>(),
  },
  (t) => [index("pal_logs_sample").on(t.sampleId, t.position)],
);

export const palTurns = sqliteTable(
  "pal_turns",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    sampleId: integer("sample_id")
      .notNull()
      .references(() => palSamples.id, { onDelete: "cascade" }),
    turnKey: text("turn_key").notNull(), // "turn_1"
    position: integer("position").notNull(), // 1-based turn number
    /** Index (0-based) of the topic this turn belongs to: each user Topic Inquiry starts the next. */
    topicIndex: integer("topic_index"),
    userAction: text("user_action").notNull(),
    userActionCode: text("user_action_code"),
    userContent: text("user_content").notNull(),
    assistantAction: text("assistant_action").notNull(),
    assistantActionCode: text("assistant_action_code"),
    assistantContent: text("assistant_content").notNull(),
    extra: text("extra", { mode: "json" }).$type<Record<string, unknown>>(),
  },
  (t) => [index("pal_turns_sample").on(t.sampleId, t.position)],
);

export const palTopics = sqliteTable(
  "pal_topics",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    sampleId: integer("sample_id")
      .notNull()
      .references(() => palSamples.id, { onDelete: "cascade" }),
    topicKey: text("topic_key").notNull(), // "topic-1"
    position: integer("position").notNull(),
    userQuery: text("user_query").notNull(),
    implicitNeeds: text("implicit_needs", { mode: "json" }).$type<string[]>().notNull(),
    requirement: text("requirement").notNull(),
    solutionPos: text("solution_pos", { mode: "json" }).$type<string[]>().notNull(),
    solutionNeg: text("solution_neg", { mode: "json" }).$type<string[]>().notNull(),
    /** Requirement type key (e.g. "work-2") from situation.json's requirement_ids. */
    requirementTypeKey: text("requirement_type_key"),
    /** requirement_framework.json and solution_preference.json entries, when imported. */
    framework: text("framework", { mode: "json" }).$type<Record<string, unknown>>(),
    solutionPreference: text("solution_preference", { mode: "json" }).$type<Record<string, unknown>>(),
    /** dialogue_template.json entry (multi-turn task), when imported. */
    dialogueTemplate: text("dialogue_template", { mode: "json" }).$type<Record<string, unknown>>(),
    extra: text("extra", { mode: "json" }).$type<Record<string, unknown>>(),
  },
  (t) => [uniqueIndex("pal_topics_sample_key").on(t.sampleId, t.topicKey)],
);

export const FEEDBACK = ["pos", "neg", "neu"] as const;

export const palCandidates = sqliteTable(
  "pal_candidates",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    topicId: integer("topic_id")
      .notNull()
      .references(() => palTopics.id, { onDelete: "cascade" }),
    position: integer("position").notNull(),
    solution: text("solution").notNull(),
    feedback: text("feedback", { enum: FEEDBACK }).notNull(),
    extra: text("extra", { mode: "json" }).$type<Record<string, unknown>>(),
  },
  (t) => [index("pal_candidates_topic").on(t.topicId, t.position)],
);
