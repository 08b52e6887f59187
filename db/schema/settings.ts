import { sqliteTable, integer, text } from "drizzle-orm/sqlite-core";
import { users } from "./auth";

/**
 * Settings an admin changes in the app (Admin → Settings), one JSON value per key, e.g.
 * "experiments.limits" (lib/experiments/limits.ts). A missing key means the documented default.
 */
export const appSettings = sqliteTable("app_settings", {
  key: text("key").primaryKey(),
  value: text("value", { mode: "json" }).$type<unknown>().notNull(),
  updatedAt: integer("updated_at").notNull(),
  updatedBy: integer("updated_by").references(() => users.id, { onDelete: "set null" }),
});
