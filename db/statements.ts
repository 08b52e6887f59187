import type BetterSqlite3 from "better-sqlite3";
import type { Db } from "./client";

/**
 * Hand-written SQL for the statements run per model call or per job (the ledger insert, the cache
 * lookup, claiming and completing jobs), compiled once per connection: building the same query with
 * drizzle's builder each time costs more than running it.
 */
const compiled = new WeakMap<object, Map<string, BetterSqlite3.Statement<unknown[], unknown>>>();
export function stmt(db: Db, sqlText: string): BetterSqlite3.Statement<unknown[], unknown> {
  let m = compiled.get(db.$client);
  if (!m) compiled.set(db.$client, (m = new Map()));
  let s = m.get(sqlText);
  if (!s) m.set(sqlText, (s = db.$client.prepare(sqlText)));
  return s;
}
