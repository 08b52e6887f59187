/**
 * What makes a SQLite file a PAL Studio bundle: the tables of a migrated PAL Studio database holding one
 * run, plus `pal_bundle` (what it is: format, the run's identity, when and by which version it was
 * exported), `pal_bundle_replies` (a digest of every cached reply, so a reply edited after export is
 * named on import and verify) and `pal_bundle_cache` (the cached replies, compressed: cache-chunks.ts).
 * The helpers here read and check those on an open connection.
 */
import type Database from "better-sqlite3";
import { sha256 } from "@/lib/llm/hash";
import { InvalidInputError } from "@/lib/errors";

export const BUNDLE_FORMAT = "pal-bundle/2";

export type BundleMeta = {
  format: string;
  runUid: string;
  sourceExperimentId: number;
  exportedAt: number;
  exportedVersion: string;
  datasetName: string;
  datasetKind: string;
  datasetHash: string;
  withData: boolean;
};

/** SQL functions the copies use: a URL without credentials or query. */
export function registerFunctions(conn: Database.Database): void {
  conn.function("pal_strip_url", { deterministic: true }, (u: unknown) => stripUrl(u as string | null));
}

/** An endpoint URL as a bundle may carry it: no user:password@, no query string or fragment (keys hide there). */
export function stripUrl(url: string | null): string | null {
  if (url === null) return null;
  try {
    const u = new URL(url);
    if (!u.username && !u.password && !u.search && !u.hash) return url;
    u.username = "";
    u.password = "";
    u.search = "";
    u.hash = "";
    return u.toString().replace(/\/+$/, "");
  } catch {
    return url.replace(/\/\/[^/@]*@/, "//").replace(/[?#].*$/, "");
  }
}

export const META_DDL = [
  "CREATE TABLE pal_bundle (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
  "CREATE TABLE pal_bundle_replies (key TEXT PRIMARY KEY, digest TEXT NOT NULL) WITHOUT ROWID",
  // The cached replies, compressed (cache-chunks.ts).
  "CREATE TABLE pal_bundle_cache (id INTEGER PRIMARY KEY, rows INTEGER NOT NULL, data BLOB NOT NULL)",
];

export function writeMeta(conn: Database.Database, schema: string, meta: BundleMeta): void {
  const ins = conn.prepare(`INSERT INTO "${schema}".pal_bundle (key, value) VALUES (?, ?)`);
  for (const [k, v] of Object.entries(meta)) ins.run(k, String(v));
}

/** The bundle's description, checked; a file that is not a bundle is refused naming what is missing. */
export function readMeta(conn: Database.Database, schema: string, file: string): BundleMeta {
  const has = conn.prepare(`SELECT 1 FROM "${schema}".sqlite_master WHERE type = 'table' AND name = 'pal_bundle'`).get();
  if (!has) throw new InvalidInputError(`${file} is not a PAL Studio bundle (no pal_bundle table)`);
  const rows = conn.prepare(`SELECT key, value FROM "${schema}".pal_bundle`).all() as Array<{ key: string; value: string }>;
  const m = new Map(rows.map((r) => [r.key, r.value]));
  const need = (k: keyof BundleMeta) => {
    const v = m.get(k);
    if (v === undefined || v === "") throw new InvalidInputError(`${file}: pal_bundle has no ${k}`);
    return v;
  };
  const format = need("format");
  if (format !== BUNDLE_FORMAT)
    throw new InvalidInputError(`${file}: bundle format "${format}" is not one this version reads (${BUNDLE_FORMAT})`);
  const int = (k: keyof BundleMeta) => {
    const v = need(k);
    if (!/^\d+$/.test(v)) throw new InvalidInputError(`${file}: pal_bundle.${k} "${v}" is not a number`);
    return Number(v);
  };
  return {
    format,
    runUid: need("runUid"),
    sourceExperimentId: int("sourceExperimentId"),
    exportedAt: int("exportedAt"),
    exportedVersion: need("exportedVersion"),
    datasetName: need("datasetName"),
    datasetKind: need("datasetKind"),
    datasetHash: need("datasetHash"),
    withData: need("withData") === "true",
  };
}

/** The identity of a run across databases: what it asked (config and data hashes), when it was created and its name. */
export function runUidOf(e: { configHash: string; datasetHash: string; createdAt: number; name: string }): string {
  return sha256(`${e.configHash}\u0000${e.datasetHash}\u0000${e.createdAt}\u0000${e.name}`);
}
