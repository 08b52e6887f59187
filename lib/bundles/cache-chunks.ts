/**
 * The cached requests and replies of a bundle, stored compressed: rows of llm_cache as lines of JSON,
 * about a megabyte of them deflated into one row of `pal_bundle_cache` (the bundle's own llm_cache is
 * empty). The prompts of one step repeat its instructions and the lines go in the order the ledger
 * first used them, so deflate finds the repeats inside a chunk: a plain prompt of a few kB took most of
 * a plain bundle's bytes, and one SQLite page each. Rows cross JavaScript here, in chunks: zlib on a
 * row at a time cost a third of a millisecond per row, a chunk at a time a few per megabyte.
 */
import zlib from "node:zlib";
import { z } from "zod";
import type Database from "better-sqlite3";
import { InvalidInputError } from "@/lib/errors";
import { sha256 } from "@/lib/llm/hash";
import { stripUrl } from "./format";
import { BUNDLE_LIMITS } from "./limits";

/** A cache row as a bundle carries it (llm_cache's columns by name). */
export type CacheRow = Record<string, unknown> & { key: string; endpoint: string; model: string; request: string; response: string };

/** A cache row as a bundle must carry it: the reply's identity as text, the rest plain values (llm_cache's columns). */
const cacheRowSchema = z
  .object({ key: z.string().max(200), endpoint: z.string(), model: z.string(), request: z.string(), response: z.string() })
  .catchall(z.union([z.string(), z.number(), z.null()]));

const CHUNK_BYTES = 1 << 20;
/** zlib's level: 1 deflates ~100 MB/s on this class of machine, 6 a third of that for a third fewer bytes. */
const LEVEL = 3;

/** The digest of one cache entry: its key, endpoint, model, request and reply (an edit to any is caught). */
export const replyDigest = (r: CacheRow) => sha256(`${r.key}\u0000${r.endpoint}\u0000${r.model}\u0000${r.request}\u0000${r.response}`);

function writeChunk(conn: Database.Database, schema: string, rows: CacheRow[]): void {
  const data = zlib.deflateRawSync(Buffer.from(rows.map((r) => JSON.stringify(r)).join("\n"), "utf8"), { level: LEVEL });
  conn.prepare(`INSERT INTO "${schema}".pal_bundle_cache (rows, data) VALUES (?, ?)`).run(rows.length, data);
}

/**
 * Writes the cache entries of `fromSchema` named by `keysSql` (an SQL query of keys, in the order they
 * are to be stored) into the bundle in `toSchema` as chunks, each with its digest in pal_bundle_replies.
 * An imported experiment (`importedExperiment`) takes its replies from what its bundle brought
 * (bundle_replies), the lab's own from llm_cache. Endpoint URLs lose any credentials and query
 * (format.ts stripUrl). Returns the entries written.
 */
export function writeCacheChunks(
  conn: Database.Database,
  fromSchema: string,
  toSchema: string,
  keysSql: string,
  importedExperiment: number | null = null,
): number {
  const keys = (conn.prepare(keysSql).pluck().all() as string[]).filter((k) => typeof k === "string");
  const fromCache = conn.prepare(`SELECT * FROM "${fromSchema}".llm_cache WHERE key IN (SELECT value FROM json_each(?))`);
  const fromBundle = conn.prepare(
    `SELECT key, endpoint, model, request, response, prompt_tokens, completion_tokens, cached_tokens, reasoning_tokens, created_at
     FROM "${fromSchema}".bundle_replies WHERE experiment_id = ? AND key IN (SELECT value FROM json_each(?))`,
  );
  // Its bundle's reply first; a job run here after the import (resumed) has its reply in llm_cache.
  const get = {
    all: (json: string): CacheRow[] =>
      importedExperiment === null
        ? (fromCache.all(json) as CacheRow[])
        : [...(fromCache.all(json) as CacheRow[]), ...(fromBundle.all(importedExperiment, json) as CacheRow[])],
  };
  const digest = conn.prepare(`INSERT INTO "${toSchema}".pal_bundle_replies (key, digest) VALUES (?, ?)`);
  let chunk: CacheRow[] = [];
  let bytes = 0;
  let written = 0;
  for (let i = 0; i < keys.length; i += 500) {
    const slice = keys.slice(i, i + 500);
    const byKey = new Map((get.all(JSON.stringify(slice)) as CacheRow[]).map((r) => [r.key, r]));
    for (const k of slice) {
      const r = byKey.get(k);
      if (!r) continue;
      r.endpoint = stripUrl(r.endpoint) ?? r.endpoint;
      digest.run(r.key, replyDigest(r));
      chunk.push(r);
      written++;
      bytes += r.request.length + r.response.length;
      if (bytes >= CHUNK_BYTES) {
        writeChunk(conn, toSchema, chunk);
        chunk = [];
        bytes = 0;
      }
    }
  }
  if (chunk.length) writeChunk(conn, toSchema, chunk);
  return written;
}

/** Each chunk's cache rows of the bundle in `schema`, one chunk at a time. A damaged chunk is named. */
export function* readCacheChunks(conn: Database.Database, schema: string, file: string): Generator<CacheRow[]> {
  const ids = conn.prepare(`SELECT id FROM "${schema}".pal_bundle_cache ORDER BY id`).pluck().all() as number[];
  const get = conn.prepare(`SELECT data FROM "${schema}".pal_bundle_cache WHERE id = ?`).pluck();
  for (const id of ids) {
    let text: string;
    try {
      // A few kB of deflate can inflate to gigabytes: at most BUNDLE_LIMITS.chunkBytes (export writes ~1 MB a chunk).
      text = zlib.inflateRawSync(get.get(id) as Buffer, { maxOutputLength: BUNDLE_LIMITS.chunkBytes }).toString("utf8");
    } catch (e) {
      const big = e instanceof RangeError || (e as NodeJS.ErrnoException).code === "ERR_BUFFER_TOO_LARGE";
      throw new InvalidInputError(
        big
          ? `${file}: the cached replies' chunk ${id} inflates to more than ${BUNDLE_LIMITS.chunkBytes} bytes, more than a bundle's chunk may: refused`
          : `${file}: the cached replies' chunk ${id} cannot be read (${e instanceof Error ? e.message : e})`,
      );
    }
    const rows: CacheRow[] = [];
    for (const [i, line] of (text ? text.split("\n") : []).entries()) {
      let r: ReturnType<typeof cacheRowSchema.safeParse>;
      try {
        r = cacheRowSchema.safeParse(JSON.parse(line));
      } catch (e) {
        throw new InvalidInputError(
          `${file}: the cached replies' chunk ${id}, line ${i + 1}, is not JSON (${e instanceof Error ? e.message : e})`,
        );
      }
      if (!r.success) {
        const issue = r.error.issues[0];
        throw new InvalidInputError(
          `${file}: the cached replies' chunk ${id}, line ${i + 1}, field ${issue.path.join(".") || "(the row)"}: ${issue.message}`,
        );
      }
      rows.push(r.data as CacheRow);
    }
    yield rows;
  }
}

/** Rewrites every chunk of the bundle in `schema` as `edit` returns its rows (tests edit bundles with it). */
export function rewriteCacheChunks(conn: Database.Database, schema: string, edit: (rows: CacheRow[]) => CacheRow[]): void {
  const all = [...readCacheChunks(conn, schema, schema)].flat();
  conn.prepare(`DELETE FROM "${schema}".pal_bundle_cache`).run();
  writeChunk(conn, schema, edit(all));
}

/**
 * Inserts the bundle's cache rows into `toSchema`: with `experimentId`, into bundle_replies under that
 * (imported) experiment, where no request of this lab reads them (their keys were computed by the
 * sender: issue 40); without, into llm_cache (a replay's own database: verify.ts). A key already there
 * is kept. Only the columns the target has are written.
 */
export function importCacheChunks(
  conn: Database.Database,
  fromSchema: string,
  toSchema: string,
  file: string,
  experimentId: number | null = null,
): number {
  const table = experimentId === null ? "llm_cache" : "bundle_replies";
  const info = conn.prepare(`PRAGMA "${toSchema}".table_info(${table})`).all() as Array<{ name: string; dflt_value: string | null }>;
  const cols = info.map((c) => c.name);
  const ins = conn.prepare(
    `INSERT OR IGNORE INTO "${toSchema}".${table} (${cols.map((c) => `"${c}"`).join(", ")}) VALUES (${cols.map((c) => `@${c}`).join(", ")})`,
  );
  // A column the bundle's rows lack (a newer version's): its default when it is a number, else null.
  const defaults: Record<string, unknown> = Object.fromEntries(
    info.map((c) => [c.name, c.dflt_value !== null && /^-?\d+$/.test(c.dflt_value) ? Number(c.dflt_value) : null]),
  );
  let n = 0;
  for (const rows of readCacheChunks(conn, fromSchema, file))
    for (const r of rows) {
      const row = { ...defaults };
      for (const c of cols) if (r[c] !== undefined) row[c] = r[c];
      if (experimentId !== null) row.experiment_id = experimentId;
      if (row.created_at === null) row.created_at = Date.now();
      n += ins.run(row).changes;
    }
  return n;
}

/** Cache entries of the bundle whose content does not match its digest (edited, or added): their keys, at most `limit`. */
export function changedReplies(conn: Database.Database, schema: string, file: string, limit = 5): string[] {
  // One digest looked up per reply (its primary key): memory stays a chunk's, however many replies there are.
  const digest = conn.prepare(`SELECT digest FROM "${schema}".pal_bundle_replies WHERE key = ?`).pluck();
  const out: string[] = [];
  for (const rows of readCacheChunks(conn, schema, file))
    for (const r of rows) {
      if (digest.get(r.key) !== replyDigest(r)) out.push(r.key);
      if (out.length >= limit) return out;
    }
  return out;
}
