/**
 * A bundle read as data, never as a database we trust (docs/security.md, "Bundles"). Its schema is the
 * sender's: a view over an endless recursive query, a trigger, a generated column or a virtual table
 * would run the sender's code as soon as we read it. So before any row is read:
 * - every object in its sqlite_master must be one this version's own schema has, with the same SQL
 *   (a table may be an older version's: fewer columns, none generated), or one of the bundle's tables;
 * - no table holds more than BUNDLE_LIMITS.tableRows rows, no value more than BUNDLE_LIMITS.valueBytes;
 * - every row of every table an import reads is checked with a zod schema derived from the table's
 *   drizzle definition (type, NOT NULL, enum, JSON), names are plain text, and the experiment's config
 *   is one this version parses.
 * Each refusal names the file, the table, the row and the column.
 */
import type Database from "better-sqlite3";
import { z } from "zod";
import { getTableConfig, SQLiteTable, type SQLiteColumn } from "drizzle-orm/sqlite-core";
import { openDb } from "@/db/client";
import * as schema from "@/db/schema";
import { InvalidInputError } from "@/lib/errors";
import { parseExperimentConfig } from "@/lib/experiments/config";
import { META_DDL } from "./format";
import { BUNDLE_LIMITS } from "./limits";

type SchemaObject = { type: string; name: string; tbl_name: string; sql: string | null };

const quoteId = (s: string) => `"${s.replace(/"/g, '""')}"`;
const norm = (sql: string | null) => (sql ?? "").replace(/\s+/g, " ").trim();

type Reference = { objects: Map<string, SchemaObject>; columns: Map<string, Set<string>> };
let reference: Reference | null = null;
/** This version's own schema (a fresh migrated database, plus the bundle's tables): what a bundle may hold. */
function referenceSchema(): Reference {
  if (reference) return reference;
  const db = openDb(":memory:");
  try {
    for (const ddl of META_DDL) db.$client.exec(ddl);
    const rows = db.$client.prepare("SELECT type, name, tbl_name, sql FROM sqlite_master").all() as SchemaObject[];
    const columns = new Map(
      rows
        .filter((r) => r.type === "table")
        .map((r) => [
          r.name,
          new Set((db.$client.prepare(`PRAGMA table_info(${quoteId(r.name)})`).all() as Array<{ name: string }>).map((c) => c.name)),
        ]),
    );
    reference = { objects: new Map(rows.map((r) => [r.name, r])), columns };
    return reference;
  } finally {
    db.$client.close();
  }
}

/**
 * Refuses any object of the bundle's schema this version does not have as it has it: views, triggers,
 * indexes and virtual tables only with the SQL of our own (they then run only our code), tables only by
 * our names, with our columns and none of them generated.
 */
export function checkSchemaObjects(conn: Database.Database, file: string): void {
  const ref = referenceSchema().objects;
  const objects = conn.prepare("SELECT type, name, tbl_name, sql FROM main.sqlite_master").all() as SchemaObject[];
  if (!objects.some((o) => o.type === "table" && o.name === "pal_bundle"))
    throw new InvalidInputError(`${file} is not a PAL Studio bundle (no pal_bundle table)`);
  for (const o of objects) {
    const what = `${file}: the bundle's ${o.type} "${o.name}"`;
    const mine = ref.get(o.name);
    // SQLite's own indexes of a table's UNIQUE and PRIMARY KEY (no SQL of their own).
    if (o.type === "index" && o.sql === null && o.name.startsWith("sqlite_autoindex_") && ref.get(o.tbl_name)?.type === "table") continue;
    if (!mine || mine.type !== o.type || mine.tbl_name !== o.tbl_name)
      throw new InvalidInputError(`${what} is not part of a bundle (this version's schema has no ${o.type} of that name): refused`);
    if (norm(mine.sql) === norm(o.sql)) continue;
    if (o.type !== "table" || /^CREATE\s+VIRTUAL/i.test(o.sql ?? "") || /^CREATE\s+VIRTUAL/i.test(mine.sql ?? ""))
      throw new InvalidInputError(`${what} is not defined as this version defines it: refused`);
    // A table of an older or newer version: only our columns, none computed by the sender's expressions
    // (this version defines no CHECK and no generated column: one in the sender's would run on a check).
    if (/\bCHECK\b|\bGENERATED\b|\bAS\s*\(/i.test(o.sql ?? ""))
      throw new InvalidInputError(`${what} computes values (a CHECK or a generated column) this version's table does not: refused`);
    const ours = referenceSchema().columns.get(o.name) ?? new Set<string>();
    const cols = conn.prepare(`PRAGMA main.table_xinfo(${quoteId(o.name)})`).all() as Array<{ name: string; hidden: number }>;
    for (const c of cols) {
      if (c.hidden !== 0) throw new InvalidInputError(`${what}: its column ${c.name} is generated or hidden: refused`);
      if (!ours.has(c.name)) throw new InvalidInputError(`${what}: this version's table has no column ${c.name}: refused`);
    }
  }
}

/** Plain text for a name a page shows: no control characters, no bidirectional overrides (U+202E makes "exe.txt" of "txt.exe"). */
export const NAME_BAD = /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/;
const plainName = z
  .string()
  .max(BUNDLE_LIMITS.nameChars, `longer than ${BUNDLE_LIMITS.nameChars} characters`)
  .refine((s) => !NAME_BAD.test(s), "holds a control or text-direction character");

const jsonText = z.string().refine((s) => {
  try {
    JSON.parse(s);
    return true;
  } catch {
    return false;
  }
}, "is not JSON");

const experimentConfig = jsonText.superRefine((s, ctx) => {
  try {
    parseExperimentConfig(JSON.parse(s));
  } catch (e) {
    ctx.addIssue({ code: "custom", message: `is not a config this version reads (${e instanceof Error ? e.message : e})` });
  }
});

function columnSchema(table: string, col: SQLiteColumn): z.ZodType {
  let s: z.ZodType;
  if (table === "experiments" && col.name === "config") s = experimentConfig;
  else if (col.columnType === "SQLiteTextJson") s = jsonText;
  else if (col.enumValues?.length) s = z.enum(col.enumValues as [string, ...string[]]);
  else if (col.name === "name" && col.getSQLType() === "text") s = plainName;
  else if (col.columnType === "SQLiteBoolean") s = z.union([z.literal(0), z.literal(1)]);
  else
    switch (col.getSQLType()) {
      case "integer":
        s = z.number().int();
        break;
      case "real":
        s = z.number();
        break;
      case "blob":
        s = z.instanceof(Buffer);
        break;
      default:
        s = z.string();
    }
  // A column an older version's table lacks reads as undefined (the copy then uses our default).
  return (col.notNull ? s : s.nullable()).optional();
}

/** The bundle's own tables (format.ts META_DDL). */
const META_ROWS: Record<string, z.ZodType> = {
  pal_bundle: z.object({ key: z.string().max(200), value: z.string().max(10_000) }),
  pal_bundle_replies: z.object({ key: z.string().max(200), digest: z.string().regex(/^[0-9a-f]{64}$/, "is not a sha256 digest") }),
  pal_bundle_cache: z.object({ id: z.number().int(), rows: z.number().int().nonnegative(), data: z.instanceof(Buffer) }),
};

let rowSchemas: Map<string, z.ZodType> | null = null;
/** One zod object per table of this version's schema, from its drizzle definition. */
function rowSchemaOf(table: string): z.ZodType | undefined {
  if (!rowSchemas) {
    rowSchemas = new Map(Object.entries(META_ROWS));
    for (const t of Object.values(schema))
      if (t instanceof SQLiteTable) {
        const c = getTableConfig(t);
        rowSchemas.set(c.name, z.object(Object.fromEntries(c.columns.map((col) => [col.name, columnSchema(c.name, col)]))));
      }
  }
  return rowSchemas.get(table);
}

/**
 * Checks the size and every row of each table of the bundle that this version's schema defines (the
 * tables an import, a verify or a card reads). Rows stream one at a time: memory stays that of a row.
 */
export function checkRows(conn: Database.Database, file: string): void {
  const tables = conn
    .prepare("SELECT name FROM main.sqlite_master WHERE type = 'table' AND sql NOT LIKE 'CREATE VIRTUAL%'")
    .pluck()
    .all() as string[];
  for (const table of tables) {
    const rowSchema = rowSchemaOf(table);
    if (!rowSchema) continue; // sqlite_sequence, the migrations' journal, a text index's own tables: never read as rows
    const t = quoteId(table);
    const count = (conn.prepare(`SELECT count(*) FROM main.${t}`).pluck().get() as number) ?? 0;
    if (count > BUNDLE_LIMITS.tableRows)
      throw new InvalidInputError(`${file}: table ${table} holds ${count} rows, more than a bundle may (${BUNDLE_LIMITS.tableRows})`);
    const cols = (conn.prepare(`PRAGMA main.table_info(${t})`).all() as Array<{ name: string; pk: number }>).map((c) => c.name);
    const key = cols.includes("id") ? "id" : cols.includes("key") ? "key" : null;
    const rowName = (r: Record<string, unknown>, i: number) => (key ? `row ${key} ${String(r[key]).slice(0, 80)}` : `row ${i + 1}`);
    // A value too large is found in SQL, before it is ever read into this process.
    const big = conn
      .prepare(
        `SELECT ${key ? quoteId(key) : "NULL"} AS k, ${cols.map((c) => `octet_length(${quoteId(c)}) AS ${quoteId(c)}`).join(", ")} FROM main.${t}
         WHERE max(${cols.map((c) => `coalesce(octet_length(${quoteId(c)}), 0)`).join(", ")}, 0) > ? LIMIT 1`,
      )
      .get(BUNDLE_LIMITS.valueBytes) as Record<string, unknown> | undefined;
    if (big) {
      const col = cols.find((c) => Number(big[c]) > BUNDLE_LIMITS.valueBytes);
      throw new InvalidInputError(
        `${file}: table ${table}, ${key ? `row ${key} ${String(big.k).slice(0, 80)}` : "a row"}, column ${col}: a value of ${big[col!]} bytes, more than a bundle's value may hold (${BUNDLE_LIMITS.valueBytes})`,
      );
    }
    let i = 0;
    for (const row of conn.prepare(`SELECT * FROM main.${t}`).iterate() as IterableIterator<Record<string, unknown>>) {
      const r = rowSchema.safeParse(row);
      if (!r.success) {
        const issue = r.error.issues[0];
        const field = issue.path.join(".");
        const shown = JSON.stringify(row[String(issue.path[0])] ?? null)?.slice(0, 60);
        throw new InvalidInputError(`${file}: table ${table}, ${rowName(row, i)}, column ${field}: ${shown} ${issue.message}`);
      }
      i++;
    }
  }
}
