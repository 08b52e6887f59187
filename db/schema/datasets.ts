import { sqliteTable, integer, text } from "drizzle-orm/sqlite-core";
import { createdAt } from "./common";
import { users } from "./auth";

/** One imported data set (a PAL-Set language version, or a HiCUPID copy). */
export const datasets = sqliteTable("datasets", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  name: text("name").notNull().unique(),
  /** An id of lib/datasets/kinds ("palset", "hicupid"): the registry, not the schema, lists the kinds. */
  kind: text("kind").notNull(),
  /** "zh" | "en" for PAL-Set; "en" for HiCUPID. */
  language: text("language"),
  /** Where it came from (file names), for the record. */
  source: text("source"),
  /** Counts as `pal stats` prints them. */
  stats: text("stats", { mode: "json" }).$type<Record<string, number>>(),
  /** The data-quality report of the import (counts, warnings with examples). */
  report: text("report", { mode: "json" }).$type<unknown>(),
  importedBy: integer("imported_by").references(() => users.id, { onDelete: "set null" }),
  createdAt: createdAt(),
});
