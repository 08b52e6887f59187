import { sqliteTable, integer, text, index, uniqueIndex } from "drizzle-orm/sqlite-core";
import { datasets } from "./datasets";

/**
 * Conversational-memory benchmarks (LoCoMo, LongMemEval; docs/data-formats.md). A thread is one memory
 * timeline: a LoCoMo conversation, or a LongMemEval question's haystack. Sessions are stored once per
 * data set and content (LongMemEval's haystacks repeat the same sessions across questions); the
 * timeline rows say which sessions a thread holds, in order, with their dates.
 */
export const cmThreads = sqliteTable(
  "cm_threads",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    datasetId: integer("dataset_id")
      .notNull()
      .references(() => datasets.id, { onDelete: "cascade" }),
    threadKey: text("thread_key").notNull(),
    position: integer("position").notNull(),
    /** LoCoMo's two speakers; null on LongMemEval (user/assistant). */
    speakerA: text("speaker_a"),
    speakerB: text("speaker_b"),
    sessionCount: integer("session_count").notNull().default(0),
    turnCount: integer("turn_count").notNull().default(0),
    qaCount: integer("qa_count").notNull().default(0),
    /** LoCoMo's event summaries, observations and session summaries when present (never shown to methods). */
    extra: text("extra", { mode: "json" }).$type<Record<string, unknown>>(),
  },
  (t) => [
    uniqueIndex("cm_threads_dataset_key").on(t.datasetId, t.threadKey),
    index("cm_threads_dataset_position").on(t.datasetId, t.position),
  ],
);

export const cmSessions = sqliteTable(
  "cm_sessions",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    datasetId: integer("dataset_id")
      .notNull()
      .references(() => datasets.id, { onDelete: "cascade" }),
    /** LongMemEval's haystack session id; LoCoMo `<sample_id>/session_<N>`. */
    sessionKey: text("session_key").notNull(),
    /** sha256 of the turns as stored: the same id with other contents is another row. */
    hash: text("hash").notNull(),
    turnCount: integer("turn_count").notNull().default(0),
  },
  (t) => [uniqueIndex("cm_sessions_dataset_key_hash").on(t.datasetId, t.sessionKey, t.hash)],
);

export const cmTurns = sqliteTable(
  "cm_turns",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    sessionId: integer("session_id")
      .notNull()
      .references(() => cmSessions.id, { onDelete: "cascade" }),
    position: integer("position").notNull(),
    /** LongMemEval: "user" | "assistant"; LoCoMo: the speaker's name. */
    speaker: text("speaker").notNull(),
    text: text("text").notNull(),
    /** LoCoMo's dialogue id ("D3:5"). */
    diaId: text("dia_id"),
    /** LongMemEval's has_answer (1/0); null when absent. */
    hasAnswer: integer("has_answer"),
    /** Other fields of the turn (LoCoMo img_url, blip_caption, query...). */
    extra: text("extra", { mode: "json" }).$type<Record<string, unknown>>(),
  },
  (t) => [index("cm_turns_session").on(t.sessionId, t.position)],
);

export const cmTimeline = sqliteTable(
  "cm_timeline",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    threadId: integer("thread_id")
      .notNull()
      .references(() => cmThreads.id, { onDelete: "cascade" }),
    position: integer("position").notNull(),
    sessionId: integer("session_id")
      .notNull()
      .references(() => cmSessions.id, { onDelete: "cascade" }),
    /** The session's name in the thread: LoCoMo "session_3", LongMemEval the haystack session id. */
    label: text("label").notNull(),
    /** session_N_date_time / haystack_dates[i], as written. */
    date: text("date"),
  },
  (t) => [index("cm_timeline_thread").on(t.threadId, t.position), index("cm_timeline_session").on(t.sessionId)],
);

export const cmQa = sqliteTable(
  "cm_qa",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    datasetId: integer("dataset_id")
      .notNull()
      .references(() => datasets.id, { onDelete: "cascade" }),
    threadId: integer("thread_id")
      .notNull()
      .references(() => cmThreads.id, { onDelete: "cascade" }),
    /** LoCoMo `<sample_id>#<index in qa>`; LongMemEval question_id. */
    itemKey: text("item_key").notNull(),
    position: integer("position").notNull(),
    question: text("question").notNull(),
    /** The reference answer as text (LoCoMo answers may be numbers; category 5 keeps adversarial_answer apart). */
    answer: text("answer").notNull(),
    /** LoCoMo category 1-5. */
    category: integer("category"),
    /** LongMemEval question_type. */
    questionType: text("question_type"),
    /** LoCoMo evidence dialogue ids; LongMemEval answer_session_ids. */
    evidence: text("evidence", { mode: "json" }).$type<string[]>(),
    adversarialAnswer: text("adversarial_answer"),
    /** LongMemEval question_date. */
    questionDate: text("question_date"),
    extra: text("extra", { mode: "json" }).$type<Record<string, unknown>>(),
  },
  (t) => [
    uniqueIndex("cm_qa_dataset_key").on(t.datasetId, t.itemKey),
    index("cm_qa_dataset_position").on(t.datasetId, t.position),
    index("cm_qa_thread").on(t.threadId),
  ],
);
