import { sqliteTable, integer, text, index, uniqueIndex } from "drizzle-orm/sqlite-core";
import { createdAt } from "./common";
import { datasets } from "./datasets";
import { users } from "./auth";

/** An experiment: data set × users × methods × tasks × model settings, run N times. */
export const experiments = sqliteTable("experiments", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  name: text("name").notNull(),
  datasetId: integer("dataset_id").notNull().references(() => datasets.id, { onDelete: "cascade" }),
  /** {users, methods (with options), tasks, models per role, retriever, repeats, seed}. */
  config: text("config", { mode: "json" }).$type<Record<string, unknown>>().notNull(),
  status: text("status", { enum: ["draft", "queued", "running", "paused", "done", "failed", "cancelled"] })
    .notNull()
    .default("draft"),
  createdBy: integer("created_by").references(() => users.id, { onDelete: "set null" }),
  createdAt: createdAt(),
  finishedAt: integer("finished_at"),
});

/** One item of one experiment; results keyed so a restart skips what is done. */
export const jobs = sqliteTable(
  "jobs",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    experimentId: integer("experiment_id").notNull().references(() => experiments.id, { onDelete: "cascade" }),
    replicate: integer("replicate").notNull().default(0),
    method: text("method").notNull(),
    task: text("task").notNull(),
    /** Task item key, e.g. "0003_sample27/topic-1" or a HiCUPID qa id. */
    itemKey: text("item_key").notNull(),
    status: text("status", { enum: ["queued", "running", "done", "failed"] }).notNull().default("queued"),
    attempts: integer("attempts").notNull().default(0),
    error: text("error"),
    output: text("output", { mode: "json" }).$type<unknown>(),
    retrieved: text("retrieved", { mode: "json" }).$type<unknown>(),
    scores: text("scores", { mode: "json" }).$type<Record<string, unknown>>(),
    starred: integer("starred", { mode: "boolean" }).notNull().default(false),
    updatedAt: integer("updated_at"),
  },
  (t) => [
    uniqueIndex("jobs_identity").on(t.experimentId, t.replicate, t.method, t.task, t.itemKey),
    index("jobs_status").on(t.experimentId, t.status),
  ],
);
