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

type Runner = ((fn: () => unknown) => unknown) & { immediate: (fn: () => unknown) => unknown };
const runners = new WeakMap<object, Runner>();

/**
 * Runs `fn` in a transaction (a savepoint inside one already open), as `db.$client.transaction(fn)()`
 * does, with one wrapper per connection: better-sqlite3 builds a new wrapper for every transaction()
 * call, which cost more than the small transactions run per model call and per memory entry.
 * `immediate` takes the write lock at once (for a transaction that reads, then writes).
 */
export function transact<T>(db: Db, fn: () => T, behavior: "deferred" | "immediate" = "deferred"): T {
  let r = runners.get(db.$client);
  if (!r) runners.set(db.$client, (r = db.$client.transaction((f: () => unknown) => f()) as unknown as Runner));
  return (behavior === "immediate" ? r.immediate(fn) : r(fn)) as T;
}

const built = new WeakMap<object, Map<string, unknown>>();

/**
 * A query built with drizzle's builder (placeholders for its values) and prepared once per connection
 * under `key`, for the same reason as `stmt`, where the query is easier to read built than hand-written
 * or its rows want the schema's mapping (booleans, JSON columns).
 */
export function prepared<Q>(db: Db, key: string, build: () => Q): Q {
  let m = built.get(db.$client);
  if (!m) built.set(db.$client, (m = new Map()));
  let q = m.get(key) as Q | undefined;
  if (q === undefined) m.set(key, (q = build()));
  return q;
}
