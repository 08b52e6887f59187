/**
 * Opening a bundle file read-only and checking it before anything is written: a SQLite file, a bundle of
 * a format this version reads, one experiment, the data set's hash as described, and every cached reply
 * as it was exported (its digest). Each refusal names the file and what is wrong.
 */
import fs from "node:fs";
import type Database from "better-sqlite3";
import { openSqlite } from "@/db/client";
import { InvalidInputError, NotFoundError } from "@/lib/errors";
import { readMeta, type BundleMeta } from "./format";
import { changedReplies } from "./cache-chunks";
import { checkRows, checkSchemaObjects, NAME_BAD } from "./shape";
import { BUNDLE_LIMITS, maxBundleBytes } from "./limits";
import { z } from "zod";

const REQUIRED = [
  "datasets",
  "experiments",
  "jobs",
  "job_scores",
  "llm_calls",
  "memory_versions",
  "pal_bundle_replies",
  "pal_bundle_cache",
];

/** What a checked bundle describes, with its experiment's id in the file. */
export type CheckedBundle = BundleMeta & { experimentId: number; datasetId: number; experimentName: string };

/** The job and purpose a cache entry answered, for an error message. */
function whoAsked(conn: Database.Database, key: string): string {
  const r = conn
    .prepare(
      `SELECT c.purpose, j.id AS job, j.method, j.task, j.item_key AS item FROM llm_calls c LEFT JOIN jobs j ON j.id = c.job_id
       WHERE c.cache_key = ? ORDER BY c.job_id IS NULL LIMIT 1`,
    )
    .get(key) as { purpose: string; job: number | null; method: string; task: string; item: string } | undefined;
  if (!r) return "no ledger row";
  return r.job !== null
    ? `job ${r.job} (${r.method} / ${r.task} / ${r.item}), purpose ${r.purpose}`
    : `a memory build, purpose ${r.purpose}`;
}

/** What pal_bundle says, as plain values (the data set's name becomes a data set's name here). */
const metaSchema = z.object({
  runUid: z.string().regex(/^[0-9a-f]{64}$/, "is not a run's sha256"),
  exportedVersion: z
    .string()
    .max(200)
    .regex(/^[\x20-\x7e]*$/, "is not plain text"),
  datasetName: z
    .string()
    .max(BUNDLE_LIMITS.nameChars)
    .refine((s) => !NAME_BAD.test(s), "holds a control or text-direction character"),
  datasetKind: z.string().regex(/^[a-z0-9-]{1,40}$/, "is not a data set kind"),
  datasetHash: z
    .string()
    .max(200)
    .regex(/^[\x21-\x7e]*$/, "is not a hash"),
});

function checkMeta(meta: BundleMeta, file: string): void {
  const r = metaSchema.safeParse(meta);
  if (!r.success) {
    const i = r.error.issues[0];
    throw new InvalidInputError(
      `${file}: table pal_bundle, row key ${i.path.join(".")}: ${JSON.stringify(meta[i.path[0] as keyof BundleMeta]).slice(0, 60)} ${i.message}`,
    );
  }
}

/** Checks `file` as a bundle; returns its description. Throws (changing nothing) when it is not a sound one. */
export function checkBundle(file: string): CheckedBundle {
  if (!fs.existsSync(file)) throw new NotFoundError(`no file at ${file}`);
  const size = fs.statSync(file).size;
  if (size > maxBundleBytes())
    throw new InvalidInputError(`${file} is ${size} bytes, more than a bundle may be (${maxBundleBytes()}, PAL_BUNDLE_MAX_BYTES): refused`);
  let conn: Database.Database;
  try {
    conn = openSqlite(file, { readonly: true, fileMustExist: true });
    // The sender's schema runs none of its own functions here (and views and triggers are refused below).
    conn.pragma("trusted_schema = OFF");
    conn.pragma("query_only = ON");
    conn.pragma("schema_version");
  } catch (e) {
    throw new InvalidInputError(`${file} is not a SQLite file (${e instanceof Error ? e.message : e})`);
  }
  try {
    // Before anything is read or checked (a quick_check evaluates generated columns): only our own
    // tables and objects; every row is checked further down.
    try {
      checkSchemaObjects(conn, file);
    } catch (e) {
      if (e instanceof InvalidInputError) throw e;
      throw new InvalidInputError(`${file} is not a SQLite file (${e instanceof Error ? e.message : e})`);
    }
    let quick: string[];
    try {
      quick = (conn.pragma("quick_check") as Array<{ quick_check: string }>).map((r) => r.quick_check).filter((r) => r !== "ok");
    } catch (e) {
      throw new InvalidInputError(`${file} is not a SQLite file (${e instanceof Error ? e.message : e})`);
    }
    if (quick.length) throw new InvalidInputError(`${file} is damaged: ${quick.slice(0, 3).join("; ")}`);
    const meta = readMeta(conn, "main", file);
    checkMeta(meta, file);
    for (const t of REQUIRED)
      if (!conn.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(t))
        throw new InvalidInputError(`${file}: the bundle has no table ${t}`);
    checkRows(conn, file);
    const exps = conn.prepare("SELECT id, name, dataset_id AS datasetId, dataset_hash AS hash FROM experiments").all() as Array<{
      id: number;
      name: string;
      datasetId: number;
      hash: string;
    }>;
    if (exps.length !== 1) throw new InvalidInputError(`${file}: a bundle holds one experiment, this one ${exps.length}`);
    const [e] = exps;
    if (e.id !== meta.sourceExperimentId)
      throw new InvalidInputError(`${file}: pal_bundle names experiment ${meta.sourceExperimentId}, the bundle holds experiment ${e.id}`);
    if (e.hash !== meta.datasetHash)
      throw new InvalidInputError(`${file}: the experiment's data set hash ${e.hash} is not the bundle's ${meta.datasetHash}`);
    if (!conn.prepare("SELECT 1 FROM datasets WHERE id = ?").get(e.datasetId))
      throw new InvalidInputError(`${file}: the experiment's data set row (id ${e.datasetId}) is missing`);
    const changed = changedReplies(conn, "main", file);
    if (changed.length)
      throw new InvalidInputError(
        `${file}: the cached reply ${changed[0].slice(0, 12)}… (${whoAsked(conn, changed[0])}) is not the one exported (its digest differs)${
          changed.length > 1 ? ` and so are others` : ""
        }: the bundle was changed after export`,
      );
    return { ...meta, experimentId: e.id, datasetId: e.datasetId, experimentName: e.name };
  } finally {
    conn.close();
  }
}
