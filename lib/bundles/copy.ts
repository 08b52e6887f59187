/**
 * Copying rows between two SQLite files attached to one connection, in SQL (no row passes through
 * JavaScript: a run's hundred thousand ledger rows copy in a second). The columns copied are those both
 * sides have, so a bundle written by an older or newer version still reads; `set` replaces a column's
 * value with an SQL expression over the source row `s` (a secret blanked, an id moved).
 */
import type Database from "better-sqlite3";
import { InvalidInputError } from "@/lib/errors";

export type CopyStep = {
  table: string;
  /** SQL condition over the source row `s`. */
  where: string;
  set?: Record<string, string>;
  /** "ignore": a row whose key exists is kept; "replace": overwritten (the sums the triggers also write). */
  conflict?: "ignore" | "replace";
  /** Values `where` and `set` name as @name: a value read from a bundle is bound, never pasted into the SQL. */
  params?: Record<string, string | number | null>;
};

type Column = { name: string; notnull: number; dflt_value: unknown; pk: number };

export function columnsOf(conn: Database.Database, schema: string, table: string): Column[] {
  return conn.prepare(`PRAGMA "${schema}".table_info("${table}")`).all() as Column[];
}

/** Copies `step.table` from schema `from` into schema `to`; returns the rows written. */
export function copyRows(conn: Database.Database, from: string, to: string, step: CopyStep): number {
  const src = new Set(columnsOf(conn, from, step.table).map((c) => c.name));
  const dst = columnsOf(conn, to, step.table);
  if (src.size === 0) throw new InvalidInputError(`bundle: it has no table ${step.table}`);
  const cols: string[] = [];
  const exprs: string[] = [];
  for (const c of dst) {
    const set = step.set?.[c.name];
    if (set === undefined && !src.has(c.name)) {
      if (c.notnull && c.dflt_value === null && !c.pk)
        throw new InvalidInputError(`bundle: table ${step.table} lacks the column ${c.name}, which this version needs`);
      continue;
    }
    cols.push(`"${c.name}"`);
    exprs.push(set ?? `s."${c.name}"`);
  }
  const verb = step.conflict === "ignore" ? "INSERT OR IGNORE" : step.conflict === "replace" ? "INSERT OR REPLACE" : "INSERT";
  const sql = `${verb} INTO "${to}"."${step.table}" (${cols.join(", ")}) SELECT ${exprs.join(", ")} FROM "${from}"."${step.table}" AS s WHERE ${step.where}`;
  return conn.prepare(sql).run(step.params ?? {}).changes;
}

/**
 * Where new rows of `table` may start in schema `schema`: past its largest id and past the ids
 * AUTOINCREMENT has handed out (a deleted row's id is never reused).
 */
export function idOffset(conn: Database.Database, schema: string, table: string): number {
  const max = (conn.prepare(`SELECT coalesce(max(id), 0) AS m FROM "${schema}"."${table}"`).get() as { m: number }).m;
  const seq = conn.prepare(`SELECT seq FROM "${schema}".sqlite_sequence WHERE name = ?`).get(table) as { seq: number } | undefined;
  return Math.max(max, seq?.seq ?? 0);
}
