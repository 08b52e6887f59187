/**
 * The identity of a bundle's content (issue 40, runUid squatting): a digest of what the run holds (the
 * experiment's own fields and config, its jobs' results and scores, the memory it answered from, its
 * case-study marks, its ledger and the digest of every cached reply), computed by the importer, never
 * read from the file. `pal_bundle.runUid` is the sender's word: a bundle carrying another run's uid with
 * other content made the genuine bundle answer "imported already" and point at the impostor. The same
 * digest is computed over the database a run was made in (`nativeDigest`), so a lab importing its own
 * bundle still finds its own experiment, and only when the content is the same.
 *
 * Only what an export copies unchanged enters the digest (no leases, workers, endpoint URLs or ids, which
 * an export or an import rewrites); rows go in id order, which an export keeps.
 */
import crypto from "node:crypto";
import type Database from "better-sqlite3";
import { openSqlite } from "@/db/client";
import { InvalidInputError } from "@/lib/errors";
import { canonicalJson } from "@/lib/llm/hash";
import { columnsOf } from "./copy";
import { replyDigest, type CacheRow } from "./cache-chunks";
import { stripUrl } from "./format";

/** A select list of `wanted` columns of `table` in `schema`; one this version has and the file lacks reads as NULL. */
function list(conn: Database.Database, schema: string, table: string, alias: string, wanted: string[]): string {
  const have = new Set(columnsOf(conn, schema, table).map((c) => c.name));
  return wanted.map((c) => (have.has(c) ? `${alias}."${c}"` : "NULL")).join(", ");
}

/** The run's rows in `schema`, each as an array of values, in a fixed order (what both sides digest alike). */
function* runRows(conn: Database.Database, schema: string, e: number): Generator<unknown[]> {
  if (!Number.isSafeInteger(e)) throw new InvalidInputError(`bundle: experiment id ${String(e)} is not a whole number`);
  const s = `"${schema}"`;
  const jobs = `SELECT id FROM ${s}.jobs WHERE experiment_id = @e`;
  const versions = `SELECT version_id FROM ${s}.experiment_memory_versions WHERE experiment_id = @e`;
  const queries: Array<[string, string]> = [
    [
      "experiment",
      `SELECT ${list(conn, schema, "experiments", "x", ["name", "config_hash", "dataset_hash", "created_at", "config"])} FROM ${s}.experiments x WHERE x.id = @e`,
    ],
    [
      "jobs",
      `SELECT ${list(conn, schema, "jobs", "j", ["replicate", "method", "task", "item_key", "user_key", "phase", "status", "output", "score"])}
       FROM ${s}.jobs j WHERE j.experiment_id = @e ORDER BY j.id`,
    ],
    [
      "scores",
      `SELECT j.replicate, j.method, j.task, j.item_key, ${list(conn, schema, "job_scores", "c", ["scorer", "version", "values"])}
       FROM ${s}.job_scores c JOIN ${s}.jobs j ON j.id = c.job_id WHERE j.experiment_id = @e ORDER BY c.id`,
    ],
    [
      "memory",
      `SELECT v.user_key, v.method, v.settings_key, ${list(conn, schema, "memory_entries", "m", ["kind", "key", "content", "valid_from_seq", "valid_to_seq"])}
       FROM ${s}.memory_entries m JOIN ${s}.memory_versions v ON v.id = m.version_id WHERE m.version_id IN (${versions}) ORDER BY m.id`,
    ],
    [
      "marks",
      `SELECT ${list(conn, schema, "case_marks", "k", ["task", "item_key", "block", "start", "end", "quote", "colour", "note"])}
       FROM ${s}.case_marks k WHERE k.experiment_id = @e ORDER BY k.id`,
    ],
    [
      "ledger",
      `SELECT ${list(conn, schema, "llm_calls", "l", ["purpose", "role", "model", "cache_key", "cache_hit", "replicate", "status", "prompt_tokens", "completion_tokens", "cached_tokens", "reasoning_tokens"])}
       FROM ${s}.llm_calls l WHERE l.job_id IN (${jobs}) OR l.memory_version_id IN (${versions}) OR l.experiment_id = @e ORDER BY l.id`,
    ],
  ];
  for (const [name, sql] of queries) {
    yield [name];
    for (const r of conn.prepare(sql).raw().iterate({ e }) as Iterable<unknown[]>) yield r;
  }
}

function digestOf(rows: Iterable<unknown[]>, replies: Array<[string, string]>): string {
  const h = crypto.createHash("sha256");
  for (const r of rows) h.update(`${canonicalJson(r.map((v) => (Buffer.isBuffer(v) ? v.toString("base64") : v)))}\n`);
  h.update("replies\n");
  replies.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  for (const [k, d] of replies) h.update(`${k} ${d}\n`);
  return h.digest("hex");
}

/**
 * The content digest of the bundle `file` holding experiment `experimentId` (read-only). Its replies
 * enter by their digests (pal_bundle_replies), which the check compared with the replies themselves.
 */
export function bundleDigest(file: string, experimentId: number): string {
  const conn = openSqlite(file, { readonly: true, fileMustExist: true });
  try {
    conn.pragma("trusted_schema = OFF");
    const replies = conn.prepare("SELECT key, digest FROM pal_bundle_replies").raw().all() as Array<[string, string]>;
    return digestOf(runRows(conn, "main", experimentId), replies);
  } finally {
    conn.close();
  }
}

/**
 * The content digest experiment `experimentId` of this database would have as a bundle: its replies'
 * digests as the export writes them (endpoint URLs stripped), from llm_cache.
 */
export function nativeDigest(conn: Database.Database, experimentId: number): string {
  const e = experimentId;
  const keys = conn
    .prepare(
      `SELECT DISTINCT cache_key FROM llm_calls WHERE cache_key IS NOT NULL AND (job_id IN (SELECT id FROM jobs WHERE experiment_id = ?)
         OR memory_version_id IN (SELECT version_id FROM experiment_memory_versions WHERE experiment_id = ?) OR experiment_id = ?)`,
    )
    .pluck()
    .all(e, e, e) as string[];
  const get = conn.prepare("SELECT * FROM llm_cache WHERE key IN (SELECT value FROM json_each(?))");
  const replies: Array<[string, string]> = [];
  for (let i = 0; i < keys.length; i += 500)
    for (const r of get.all(JSON.stringify(keys.slice(i, i + 500))) as CacheRow[]) {
      r.endpoint = stripUrl(r.endpoint) ?? r.endpoint;
      replies.push([r.key, replyDigest(r)]);
    }
  return digestOf(runRows(conn, "main", e), replies);
}
