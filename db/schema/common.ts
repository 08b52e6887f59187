import { integer } from "drizzle-orm/sqlite-core";
import { sql } from "drizzle-orm";

/** Creation time in epoch milliseconds, filled by SQLite so every writer agrees. */
export const createdAt = () =>
  integer("created_at", { mode: "number" })
    .notNull()
    .default(sql`(cast(unixepoch('subsec') * 1000 as integer))`);
