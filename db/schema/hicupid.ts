import { sqliteTable, integer, text, index, uniqueIndex } from "drizzle-orm/sqlite-core";
import { datasets } from "./datasets";

/** HiCUPID (docs/data-formats.md). Unknown columns are kept in `extra`, never dropped. */
export const hcUsers = sqliteTable(
  "hc_users",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    datasetId: integer("dataset_id")
      .notNull()
      .references(() => datasets.id, { onDelete: "cascade" }),
    userKey: text("user_key").notNull(),
    position: integer("position").notNull(),
    dialogueCount: integer("dialogue_count").notNull().default(0),
    qaCount: integer("qa_count").notNull().default(0),
    /** Denormalised at import so the browse list can sort and page on them without aggregating. */
    turnCount: integer("turn_count").notNull().default(0),
    /** Dialogues of the user's history by type (25/5/10 in the published set). */
    personaDialogues: integer("persona_dialogues").notNull().default(0),
    profileDialogues: integer("profile_dialogues").notNull().default(0),
    scheduleDialogues: integer("schedule_dialogues").notNull().default(0),
  },
  (t) => [uniqueIndex("hc_users_dataset_key").on(t.datasetId, t.userKey)],
);

export const HC_TYPES = ["persona", "profile", "schedule"] as const;

export const hcDialogues = sqliteTable(
  "hc_dialogues",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    datasetId: integer("dataset_id")
      .notNull()
      .references(() => datasets.id, { onDelete: "cascade" }),
    userId: integer("user_id")
      .notNull()
      .references(() => hcUsers.id, { onDelete: "cascade" }),
    dialogueKey: text("dialogue_key").notNull(),
    split: text("split").notNull(),
    /** Order in the user's history. */
    position: integer("position").notNull(),
    /** persona | profile | schedule where the data says so. */
    type: text("type"),
    metadata: text("metadata", { mode: "json" }).$type<unknown>(),
    turnCount: integer("turn_count").notNull().default(0),
  },
  (t) => [uniqueIndex("hc_dialogues_user_key_split").on(t.userId, t.dialogueKey, t.split), index("hc_dialogues_dataset").on(t.datasetId)],
);

export const hcTurns = sqliteTable(
  "hc_turns",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    dialogueId: integer("dialogue_id")
      .notNull()
      .references(() => hcDialogues.id, { onDelete: "cascade" }),
    position: integer("position").notNull(),
    user: text("user").notNull(),
    assistant: text("assistant").notNull(),
    extra: text("extra", { mode: "json" }).$type<Record<string, unknown>>(),
  },
  (t) => [index("hc_turns_dialogue").on(t.dialogueId, t.position)],
);

export const hcQa = sqliteTable(
  "hc_qa",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    datasetId: integer("dataset_id")
      .notNull()
      .references(() => datasets.id, { onDelete: "cascade" }),
    userId: integer("user_id")
      .notNull()
      .references(() => hcUsers.id, { onDelete: "cascade" }),
    split: text("split").notNull(),
    position: integer("position").notNull(),
    type: text("type").notNull(),
    question: text("question").notNull(),
    personalizedAnswer: text("personalized_answer").notNull(),
    generalAnswer: text("general_answer").notNull(),
    /** Relevant dialogue ids (the gold setting and retrieval recall). */
    dialogueIds: text("dialogue_ids", { mode: "json" }).$type<unknown>(),
    /** Judge-only metadata (persona/profile/schedule): must never reach an assistant prompt. */
    metadata: text("metadata", { mode: "json" }).$type<unknown>(),
    extra: text("extra", { mode: "json" }).$type<Record<string, unknown>>(),
  },
  (t) => [
    index("hc_qa_dataset").on(t.datasetId, t.split, t.type),
    index("hc_qa_user").on(t.userId),
    // The browse list pages a whole data set's QA pairs in file order.
    index("hc_qa_dataset_position").on(t.datasetId, t.position),
  ],
);
