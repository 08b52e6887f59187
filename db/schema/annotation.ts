import { sqliteTable, integer, text, index, uniqueIndex } from "drizzle-orm/sqlite-core";
import { createdAt } from "./common";
import { users } from "./auth";
import { datasets } from "./datasets";

export const CAMPAIGN_KINDS = ["session-quality", "pairwise-dialogue", "hicupid-ab"] as const;

export const campaigns = sqliteTable("campaigns", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  name: text("name").notNull(),
  kind: text("kind", { enum: CAMPAIGN_KINDS }).notNull(),
  datasetId: integer("dataset_id").references(() => datasets.id, { onDelete: "set null" }),
  guidelines: text("guidelines"),
  perItem: integer("per_item").notNull().default(3),
  status: text("status", { enum: ["open", "closed"] }).notNull().default("open"),
  config: text("config", { mode: "json" }).$type<Record<string, unknown>>(),
  createdBy: integer("created_by").references(() => users.id, { onDelete: "set null" }),
  createdAt: createdAt(),
});

/** An item to label. `payload` is what the annotator may see; `hidden` (e.g. method names) never leaves the server. */
export const campaignItems = sqliteTable(
  "campaign_items",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    campaignId: integer("campaign_id").notNull().references(() => campaigns.id, { onDelete: "cascade" }),
    position: integer("position").notNull(),
    payload: text("payload", { mode: "json" }).$type<unknown>().notNull(),
    hidden: text("hidden", { mode: "json" }).$type<unknown>(),
  },
  (t) => [index("campaign_items_campaign").on(t.campaignId, t.position)],
);

export const assignments = sqliteTable(
  "assignments",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    itemId: integer("item_id").notNull().references(() => campaignItems.id, { onDelete: "cascade" }),
    annotatorId: integer("annotator_id").notNull().references(() => users.id, { onDelete: "cascade" }),
    /** Left/right order shown to this annotator (blinding), recorded. */
    swapped: integer("swapped", { mode: "boolean" }).notNull().default(false),
    status: text("status", { enum: ["pending", "draft", "done", "skipped"] }).notNull().default("pending"),
    skipReason: text("skip_reason"),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("assignments_item_annotator").on(t.itemId, t.annotatorId)],
);

export const labels = sqliteTable(
  "labels",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    assignmentId: integer("assignment_id").notNull().references(() => assignments.id, { onDelete: "cascade" }),
    /** e.g. "logs", "dialogue", "requirement", "preference", "personalization". */
    dimension: text("dimension").notNull(),
    value: text("value").notNull(),
    comment: text("comment"),
    msSpent: integer("ms_spent"),
    adjudicated: integer("adjudicated", { mode: "boolean" }).notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("labels_assignment_dimension").on(t.assignmentId, t.dimension), index("labels_assignment").on(t.assignmentId)],
);
