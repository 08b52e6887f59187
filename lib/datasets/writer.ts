/**
 * Fast batched inserts. A PAL-Set import writes ~270k rows, a LongMemEval M import over a million:
 * drizzle's `insert().values(rows)` rebuilds the SQL for every batch, and even a prepared drizzle
 * statement of 500 rows costs ~50 ms to build and fills its thousands of placeholders by name on every
 * run. So drizzle builds the SQL of ONE row (its column list, SQL defaults and bound default values
 * exactly as it would write them); the row tuple is repeated for a batch and the statement runs on the
 * driver with positional values.
 *
 * Placeholders are wrapped in `sql` so that drizzle does not run the column encoders on them: the
 * JSON encoder would store a JS null as the text "null". We encode JSON ourselves and keep SQL NULL.
 */
import { getTableColumns, is, Placeholder, sql, type SQL } from "drizzle-orm";
import { SQLiteTextJson, type BaseSQLiteDatabase, type SQLiteColumn, type SQLiteTable } from "drizzle-orm/sqlite-core";
import type { RunResult, Statement } from "better-sqlite3";
import type { Db } from "@/db/client";
import type * as schema from "@/db/schema";

export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];
/** The database or a transaction on it: what read functions accept so they also run inside an import. */
export type Queryable = BaseSQLiteDatabase<"sync", RunResult, typeof schema>;

/** One positional value of a row: the index of a key, or a value drizzle bound itself (a column default). */
type Slot = { key: number } | { value: unknown };

export class TableWriter<T extends SQLiteTable> {
  private readonly json: boolean[];
  private readonly statements = new Map<number, Statement>();
  /** `insert into "t" (...) values ` and the tuple of one row, as drizzle writes them. */
  private readonly head: string;
  private readonly tuple: string;
  private readonly slots: Slot[];
  private readonly prepare: (text: string) => Statement;
  private flat: unknown[] = [];
  private pending = 0;
  private one?: Statement;
  private readonly hasId: boolean;
  /** Rows written so far (flushed). */
  written = 0;

  constructor(
    tx: Tx,
    table: T,
    private readonly keys: ReadonlyArray<keyof T["$inferInsert"] & string>,
    private readonly batch = 100,
  ) {
    const cols = getTableColumns(table) as Record<string, SQLiteColumn>;
    this.json = keys.map((k) => {
      if (!(k in cols)) throw new Error(`${k}: no such column`);
      return is(cols[k] as never, SQLiteTextJson);
    });
    this.hasId = "id" in cols;
    const row: Record<string, SQL> = {};
    keys.forEach((k, j) => (row[k] = sql`${sql.placeholder(String(j))}`));
    const q = tx
      .insert(table)
      .values(row as never)
      .toSQL();
    const m = /^(.* values )(\(.*\))$/s.exec(q.sql);
    if (!m) throw new Error(`TableWriter: unexpected insert SQL: ${q.sql}`);
    this.head = m[1];
    this.tuple = m[2];
    this.slots = q.params.map((p) => (is(p, Placeholder) ? { key: Number(p.name) } : { value: p }));
    // The transaction's session shares the connection's client (db/client.ts caches its statements).
    const client = (tx as unknown as { session: { client: { prepare(text: string): Statement } } }).session.client;
    this.prepare = (text) => client.prepare(text);
  }

  private statement(rows: number): Statement {
    let st = this.statements.get(rows);
    if (!st) {
      st = this.prepare(this.head + Array.from({ length: rows }, () => this.tuple).join(", "));
      this.statements.set(rows, st);
    }
    return st;
  }

  private encode(row: T["$inferInsert"], out: unknown[]): void {
    const r = row as Record<string, unknown>;
    for (const s of this.slots) {
      if (!("key" in s)) {
        out.push(s.value);
        continue;
      }
      const v = r[this.keys[s.key]];
      out.push(v === undefined ? null : this.json[s.key] && v !== null ? JSON.stringify(v) : v);
    }
  }

  add(row: T["$inferInsert"]): void {
    this.encode(row, this.flat);
    if (++this.pending === this.batch) this.flush();
  }

  /**
   * Inserts one row at once and returns its `id` (the rowid SQLite assigned), for parents whose ids the
   * rows below them need. Flushes buffered rows first so ids follow the order of calls.
   */
  insertReturningId(row: T["$inferInsert"]): number {
    if (!this.hasId) throw new Error("insertReturningId: the table has no id column");
    this.flush();
    this.one ??= this.statement(1);
    const values: unknown[] = [];
    this.encode(row, values);
    this.written++;
    return Number(this.one.run(values).lastInsertRowid);
  }

  /** Writes what is buffered (parents must be flushed before rows that reference them). */
  flush(): void {
    if (!this.pending) return;
    this.statement(this.pending).run(this.flat);
    this.written += this.pending;
    this.flat = [];
    this.pending = 0;
  }
}
