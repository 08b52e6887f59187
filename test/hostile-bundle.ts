/**
 * Bundles a stranger could send, for the tests of reading one (lib/bundles/hostile.test.ts and the
 * reliability fuzz test): a genuine small bundle of a finished run written straight into SQLite (no
 * model call), and edits of its file in place (a view, a trigger, a value of another type...).
 */
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import Database from "better-sqlite3";
import type { Db } from "@/db/client";
import { exportBundle } from "@/lib/bundles/export";
import { tempDb } from "./db";
import { seedKnownExperiment } from "./known-experiment";

/** A genuine bundle of a finished run (its data set's row carried), written to `dir`/`name`. */
export function genuineBundle(dir: string, name = "genuine.palbundle"): string {
  const src = tempDb();
  try {
    const id = seedKnownExperiment(src.db.$client, { name: "Known run" });
    const out = path.join(dir, name);
    exportBundle(src.db, id, out, { withData: true });
    return out;
  } finally {
    src.cleanup();
  }
}

/** A copy of `file` named `name`, edited by `edit` on an open connection (writable, no checks). */
export function editedCopy(file: string, name: string, edit: (conn: Database.Database) => void): string {
  const out = path.join(path.dirname(file), name);
  fs.copyFileSync(file, out);
  const conn = new Database(out);
  conn.pragma("foreign_keys = OFF");
  try {
    edit(conn);
  } finally {
    conn.close();
  }
  return out;
}

/** Replaces table `table` of a bundle by a view of the same name selecting `select`. */
export function tableAsView(conn: Database.Database, table: string, select: string): void {
  conn.pragma("foreign_keys = OFF");
  conn.exec(`DROP TABLE "${table}"`);
  conn.exec(`CREATE VIEW "${table}" AS ${select}`);
}

/** A view over a recursive query that never ends (counting with no bound). */
export const ENDLESS = "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n) SELECT i AS id, 'x' AS name FROM n";

/** Deflate (raw) of `bytes` zero bytes: about a thousandth of that, inflating to `bytes`. */
export const deflateBomb = (bytes: number): Buffer => zlib.deflateRawSync(Buffer.alloc(bytes), { level: 9 });

/** Every row count of every table of `db`: a rejected bundle must leave this as it was. */
export function rowCounts(db: Db): Record<string, number> {
  const conn = db.$client;
  const tables = conn
    .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND sql NOT LIKE 'CREATE VIRTUAL%' ORDER BY name")
    .pluck()
    .all() as string[];
  return Object.fromEntries(tables.map((t) => [t, conn.prepare(`SELECT count(*) FROM "${t}"`).pluck().get() as number]));
}

/** A gzip file of `bytes` zero bytes (a gzip bomb: a few MB unpack to `bytes`). */
export function gzipBomb(file: string, bytes: number): string {
  const fd = fs.openSync(file, "w");
  const gz = zlib.gzipSync(Buffer.alloc(Math.min(bytes, 64 << 20)), { level: 9 });
  // Concatenated gzip members unpack one after another (RFC 1952): the bomb grows with no extra memory here.
  for (let done = 0; done < bytes; done += 64 << 20) fs.writeSync(fd, gz);
  fs.closeSync(fd);
  return file;
}
