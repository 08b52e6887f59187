/**
 * `pal bundle import`: a bundle's run into this database, in one transaction, as a new experiment marked
 * as imported (experiment_imports: the file, the source run, when and by which version it was exported).
 * Ids move past this database's own; the run's data set is this database's copy with the same content
 * hash, else the rows the bundle carries (a new data set named after it), else the import is refused
 * naming the data set and its hash. A memory version this database already has (same data set, user,
 * method and settings) is used as it is. Importing the same content again returns the experiment it made
 * (identity: a digest of the content computed here, ./content-digest.ts; the file's runUid is only its word).
 *
 * A bundle is a stranger's file (issue 40): the run arrives stopped (a queued or running one is paused,
 * its status in the bundle kept in experiment_imports.source_status; resuming checks the launch limits);
 * its cached replies go to bundle_replies under the new experiment, never into the lab's llm_cache; the
 * memory versions it brings get a settings key of their own ("bundle:<digest>:<key>"), so no run of this
 * lab opens them as its own memory; only
 * the users its case-study marks name become (disabled) accounts, at most MAX_MARK_AUTHORS.
 *
 * The replay of `pal bundle verify` imports through here too (`replay`): the jobs queued again with no
 * results, the cached replies kept, nothing of the memory, the ledger or the marks.
 */
import path from "node:path";
import type Database from "better-sqlite3";
import { openSqlite, type Db } from "@/db/client";
import { InvalidInputError } from "@/lib/errors";
import { datasetHash } from "@/lib/experiments/dataset-hash";
import { sha256 } from "@/lib/llm/hash";
import { copyRows, idOffset, type CopyStep } from "./copy";
import { bundleUsersSql, dataSteps, dataTables } from "./data-steps";
import { checkBundle, type CheckedBundle } from "./check";
import { registerFunctions, runUidOf } from "./format";
import { importCacheChunks } from "./cache-chunks";
import { bundleDigest, nativeDigest } from "./content-digest";
import { EXPERIMENT_STATUSES } from "@/db/schema";

export type ImportOptions = {
  /** How the import names where the bundle came from (default: the file's name). */
  source?: string;
  /** The user importing (null: the CLI). */
  importedBy?: number | null;
  /** Queue the jobs again without results, for a replay (lib/bundles/verify.ts). */
  replay?: boolean;
  /** Where the data set's rows come from when this database lacks them and the bundle does not carry them (verify: PAL_DB). */
  dataFrom?: Db;
  /** Called before each table is copied: tables done, about how many in all, the table. */
  onStep?: (done: number, total: number, table: string) => void;
  /** The bundle as checkBundle described it already (verify checks it once). */
  checked?: CheckedBundle;
};

export type ImportResult = {
  experimentId: number;
  /** The run was here already (imported before, or this database ran it): nothing was written. */
  alreadyImported: boolean;
  datasetId: number;
  datasetFromBundle: boolean;
  /** The data set's name here; whether its rows were those an earlier bundle brought (nothing copied). */
  datasetName?: string;
  datasetReused?: boolean;
  ms: number;
  rows: Record<string, number>;
};

/**
 * This database's data set with the bundle's content hash: one an experiment here was created on (its
 * recorded hash), else the first of the kind that hashes alike (a copy the bundle brought is never one).
 */
export function findDataset(db: Db, meta: Pick<CheckedBundle, "datasetHash" | "datasetKind" | "datasetName">): number | null {
  const conn = db.$client;
  const viaExperiment = conn
    .prepare(
      `SELECT e.dataset_id AS id FROM experiments e JOIN datasets d ON d.id = e.dataset_id
       WHERE e.dataset_hash = ? AND d.kind = ?
         AND e.dataset_id NOT IN (SELECT x.dataset_id FROM experiments x JOIN experiment_imports i ON i.experiment_id = x.id WHERE i.dataset_from_bundle = 1)
       LIMIT 1`,
    )
    .get(meta.datasetHash, meta.datasetKind) as { id: number } | undefined;
  if (viaExperiment) return viaExperiment.id;
  const candidates = conn
    .prepare("SELECT id FROM datasets WHERE kind = ? ORDER BY name = ? DESC, id")
    .all(meta.datasetKind, meta.datasetName) as Array<{ id: number }>;
  for (const c of candidates) if (datasetHash(db, c.id, meta.datasetKind) === meta.datasetHash) return c.id;
  return null;
}

/**
 * The sha256 of the data set's rows a bundle carries (those its run read), as datasetHash computes it over
 * a data set here (ids left out): the same rows brought by two bundles hash alike.
 */
function carriedHash(file: string, meta: Pick<CheckedBundle, "datasetId" | "datasetKind">): string {
  const b = openSqlite(file, { readonly: true, fileMustExist: true });
  try {
    return datasetHash({ $client: b } as unknown as Db, meta.datasetId, meta.datasetKind);
  } finally {
    b.close();
  }
}

/**
 * A data set an earlier bundle brought here whose rows are exactly `hash` (carriedHash): a second run of a
 * colleague's on the same users reads the rows already here rather than a copy of them.
 */
function broughtDataset(db: Db, kind: string, hash: string): number | null {
  const candidates = db.$client
    .prepare(
      `SELECT id FROM datasets WHERE kind = ? AND (source LIKE 'bundle %' OR id IN
         (SELECT x.dataset_id FROM experiments x JOIN experiment_imports i ON i.experiment_id = x.id WHERE i.dataset_from_bundle = 1))
       ORDER BY id`,
    )
    .pluck()
    .all(kind) as number[];
  for (const id of candidates) if (datasetHash(db, id, kind) === hash) return id;
  return null;
}

/**
 * The name of a data set a bundle brings: `<name> (bundle <run uid>)`; when that is taken (the same run
 * exported again with other rows, e.g. more users), `<name> (bundle <run uid>, other rows <rows' hash>)`.
 */
function broughtName(conn: Database.Database, meta: Pick<CheckedBundle, "datasetName" | "runUid">, hash: string): string {
  const taken = conn.prepare("SELECT 1 FROM datasets WHERE name = ?");
  const base = `${meta.datasetName} (bundle ${meta.runUid.slice(0, 8)})`;
  const other = `${meta.datasetName} (bundle ${meta.runUid.slice(0, 8)}, other rows ${hash.slice(0, 8)})`;
  for (const name of [base, other]) if (!taken.get(name)) return name;
  for (let n = 2; ; n++) if (!taken.get(`${other} ${n}`)) return `${other} ${n}`;
}

/** An import of the same content (./content-digest.ts), if any. */
function importedAlready(conn: Database.Database, digest: string): number | null {
  const r = conn.prepare("SELECT experiment_id AS id FROM experiment_imports WHERE content_digest = ?").get(digest) as
    { id: number } | undefined;
  return r?.id ?? null;
}

/**
 * The experiment this database already holds for the bundle's content, if any: an import of the same
 * content, or the experiment the run was made from here with the same content. The bundle's runUid only
 * points at the candidate: it is the sender's word (issue 40, squatting).
 */
function existingRun(conn: Database.Database, meta: CheckedBundle, digest: string): number | null {
  const imported = importedAlready(conn, digest);
  if (imported !== null) return imported;
  // The database the run was made in: the same experiment, found by what its uid is made of, holding the same content.
  const natives = conn
    .prepare(
      `SELECT id, name, config_hash AS configHash, dataset_hash AS datasetHash, created_at AS createdAt FROM experiments
       WHERE dataset_hash = ? AND id = ? AND id NOT IN (SELECT experiment_id FROM experiment_imports)`,
    )
    .all(meta.datasetHash, meta.sourceExperimentId) as Array<{
    id: number;
    name: string;
    configHash: string;
    datasetHash: string;
    createdAt: number;
  }>;
  const native = natives.find((n) => runUidOf(n) === meta.runUid);
  return native && nativeDigest(conn, native.id) === digest ? native.id : null;
}

/** At most this many mark authors come with a bundle (each becomes a disabled account). */
export const MAX_MARK_AUTHORS = 1000;

/** Statuses an imported experiment keeps; any other (queued, running, preparing...) arrives paused (issue 40). */
const STOPPED = ["done", "failed", "cancelled", "paused"];

/** A disabled account standing for a mark's author (their name only), shared by every bundle naming them. */
function authorFor(conn: Database.Database, name: string | null): number {
  const email = `imported-${sha256(name ?? "").slice(0, 16)}@bundle.invalid`;
  const found = conn.prepare("SELECT id FROM users WHERE email = ?").get(email) as { id: number } | undefined;
  if (found) return found.id;
  // No password can match "!" (never a hash the login accepts), and the account is disabled.
  return Number(
    conn.prepare("INSERT INTO users (email, name, role, password_hash, disabled) VALUES (?, ?, 'annotator', '!', 1)").run(email, name)
      .lastInsertRowid,
  );
}

export function importBundle(db: Db, file: string, o: ImportOptions = {}): ImportResult {
  const started = Date.now();
  const meta = o.checked ?? checkBundle(file);
  // Ids read from the bundle are numbers before they reach any SQL (checkBundle's row schemas say so too).
  if (!Number.isSafeInteger(meta.experimentId) || !Number.isSafeInteger(meta.datasetId))
    throw new InvalidInputError(`${file}: the experiment's id or its data set's id is not a whole number`);
  const conn = db.$client;
  registerFunctions(conn);
  // A replay's cached replies go into llm_cache, where the model client reads them: only in a database of its
  // own (verify's temporary one), never where a lab's runs would read them (issue 40, cache poisoning).
  if (o.replay && conn.prepare("SELECT 1 FROM experiments LIMIT 1").get())
    throw new InvalidInputError("a replay imports into a database of its own (this one holds experiments): use `pal bundle verify`");
  const digest = o.replay ? null : bundleDigest(file, meta.experimentId);
  if (digest !== null) {
    const existing = existingRun(conn, meta, digest);
    if (existing !== null)
      return { experimentId: existing, alreadyImported: true, datasetId: -1, datasetFromBundle: false, ms: Date.now() - started, rows: {} };
  }
  let datasetId = findDataset(db, meta);
  let local: { id: number; file: string } | null = null;
  if (datasetId === null && !meta.withData) {
    const there = o.dataFrom ? findDataset(o.dataFrom, meta) : null;
    if (there === null || !o.dataFrom)
      throw new InvalidInputError(
        `the run's data set "${meta.datasetName}" (${meta.datasetKind}, sha256 ${meta.datasetHash}) is not in this database and the bundle does not carry its rows: import that data set first, or export the bundle again with --with-data`,
      );
    local = { id: there, file: o.dataFrom.$client.name };
  }
  const fromBundle = datasetId === null && local === null;
  const e = meta.experimentId;
  const rows: Record<string, number> = {};
  let done = 0;
  const progress = (table: string) => o.onStep?.(done++, 20, table);
  const run = (from: string, s: CopyStep) => {
    progress(s.table);
    try {
      rows[s.table] = (rows[s.table] ?? 0) + copyRows(conn, from, "main", s);
    } catch (err) {
      // Rows each valid alone that do not fit together (a reference to a row the bundle lacks): name the table.
      if ((err as { code?: string }).code?.startsWith("SQLITE_CONSTRAINT"))
        throw new InvalidInputError(
          `${file}: table ${s.table}: its rows do not fit together (${(err as Error).message}); nothing was imported`,
        );
      throw err;
    }
  };

  // The bundle is data (checkBundle refused any view, trigger or column of the sender's): file names and
  // every value read from it are bound parameters, never SQL text, and no function of its schema runs.
  let raced: number | null = null;
  let reused = false;
  let datasetName: string | null = null;
  const trusted = conn.pragma("trusted_schema", { simple: true });
  conn.pragma("trusted_schema = OFF");
  conn.prepare("ATTACH DATABASE ? AS b").run(file);
  if (local) conn.prepare("ATTACH DATABASE ? AS l").run(local.file);
  const bound = { bundleDataset: meta.datasetId, bundleExperiment: e };
  try {
    conn
      .transaction(() => {
        // Another import of the same content may have committed since the look before (the web runs imports as processes).
        if (digest !== null && (raced = importedAlready(conn, digest)) !== null) return;
        const tables = [
          "experiments",
          "memory_versions",
          "memory_steps",
          "memory_entries",
          "jobs",
          "job_scores",
          "case_marks",
          "llm_calls",
          "llm_batches",
          "datasets",
          ...dataTables(meta.datasetKind),
        ];
        const off = Object.fromEntries(tables.map((t) => [t, idOffset(conn, "main", t)]));
        const offset = (t: string) => off[t];
        const newE = e + off.experiments;

        // The data set: this database's, the same rows an earlier bundle brought, or a new one (the bundle's
        // rows, or those of the database verify reads).
        const carried = datasetId === null && !local && !o.replay ? carriedHash(file, meta) : null;
        if (carried !== null) {
          datasetId = broughtDataset(db, meta.datasetKind, carried);
          if (datasetId !== null) {
            reused = true;
            datasetName = conn.prepare("SELECT name FROM datasets WHERE id = ?").pluck().get(datasetId) as string;
          }
        }
        if (datasetId === null) {
          datasetId = off.datasets + 1;
          datasetName = carried === null ? `${meta.datasetName} (bundle ${meta.runUid.slice(0, 8)})` : broughtName(conn, meta, carried);
          const name = datasetName;
          run("b", {
            table: "datasets",
            where: "s.id = @bundleDataset",
            set: {
              id: String(datasetId),
              name: "@name",
              imported_by: o.importedBy == null ? "NULL" : String(o.importedBy),
              source: "@source",
            },
            params: { ...bound, name, source: `bundle ${path.basename(file)}` },
          });
          const remap = { datasetId, offset };
          const steps = local
            ? dataSteps(
                meta.datasetKind,
                "l",
                local.id,
                "SELECT user_key FROM b.jobs WHERE user_key IS NOT NULL UNION SELECT user_key FROM b.memory_versions",
                remap,
              )
            : dataSteps(meta.datasetKind, "b", meta.datasetId, bundleUsersSql(meta.datasetKind, "b"), remap);
          for (const step of steps) run(local ? "l" : "b", step);
        }

        conn.exec(
          "CREATE TEMP TABLE IF NOT EXISTS bundle_map (tbl TEXT NOT NULL, old INTEGER NOT NULL, new INTEGER NOT NULL, fresh INTEGER NOT NULL, PRIMARY KEY (tbl, old))",
        );
        conn.exec("DELETE FROM temp.bundle_map");
        const mapped = (tbl: string, col: string) => `(SELECT new FROM temp.bundle_map WHERE tbl = '${tbl}' AND old = s.${col})`;
        const freshVersions = `SELECT old FROM temp.bundle_map WHERE tbl = 'v' AND fresh = 1`;

        if (o.replay) {
          run("b", {
            table: "experiments",
            where: "1",
            set: {
              id: String(newE),
              dataset_id: String(datasetId),
              status: "'queued'",
              started_at: "NULL",
              finished_at: "NULL",
              error: "NULL",
              finished_at_start: "NULL",
              created_by: "NULL",
              // A batch is how the judge calls were sent, not what they asked: the replay asks each one, answered from the bundle.
              config: "json_remove(s.config, '$.judgeBatch')",
            },
          });
          // The record names its run: under this database's id (readRunRecord reads the row's id either way).
          run("b", {
            table: "experiment_run_records",
            where: "1",
            set: { experiment_id: String(newE), record: `json_set(s.record, '$.experimentId', ${String(newE)})` },
          });
          run("b", {
            table: "jobs",
            where: "1",
            set: {
              id: `s.id + ${off.jobs}`,
              experiment_id: String(newE),
              // What ran is run again; what was cancelled or skipped stays so.
              status: "CASE WHEN s.status IN ('done', 'failed', 'running', 'queued') THEN 'queued' ELSE s.status END",
              attempts: "0",
              worker: "NULL",
              started_at: "NULL",
              lease_until: "NULL",
              finished_at: "NULL",
              error: "NULL",
              input: "NULL",
              output: "NULL",
              retrieved: "NULL",
              usage: "NULL",
              score: "NULL",
              starred: "0",
              star_note: "NULL",
              star_tags: "NULL",
            },
          });
        } else {
          const insMap = conn.prepare("INSERT INTO temp.bundle_map (tbl, old, new, fresh) VALUES (?, ?, ?, ?)");
          // Only the authors a mark names become accounts, and not without bound (a bundle's other users rows are ignored).
          const authors = conn
            .prepare(
              `SELECT id, name FROM b.users WHERE id IN (SELECT user_id FROM b.case_marks) ORDER BY id LIMIT ${MAX_MARK_AUTHORS + 1}`,
            )
            .all() as Array<{ id: number; name: string | null }>;
          if (authors.length > MAX_MARK_AUTHORS)
            throw new InvalidInputError(`${file}: the case-study marks name more than ${MAX_MARK_AUTHORS} authors (table users)`);
          for (const u of authors) insMap.run("u", u.id, authorFor(conn, u.name), 0);
          const sameVersion = conn.prepare(
            "SELECT id FROM memory_versions WHERE dataset_id = ? AND user_key = ? AND method = ? AND settings_key = ?",
          );
          for (const v of conn
            .prepare("SELECT id, user_key AS userKey, method, settings_key AS settingsKey FROM b.memory_versions")
            .all() as Array<{
            id: number;
            userKey: string;
            method: string;
            settingsKey: string;
          }>) {
            const have = sameVersion.get(datasetId, v.userKey, v.method, v.settingsKey) as { id: number } | undefined;
            insMap.run("v", v.id, have ? have.id : v.id + off.memory_versions, have ? 0 : 1);
          }
          const exp = String(newE);
          const sourceStatus = conn.prepare("SELECT status FROM b.experiments").pluck().get();
          // Arrives stopped: nothing the server runs by itself (its worker, its preparer) takes an imported run; a resume checks the limits as a launch does.
          run("b", {
            table: "experiments",
            where: "1",
            set: {
              id: exp,
              dataset_id: String(datasetId),
              created_by: o.importedBy == null ? "NULL" : String(o.importedBy),
              status: `CASE WHEN s.status IN (${STOPPED.map((x) => `'${x}'`).join(", ")}) THEN s.status ELSE 'paused' END`,
            },
          });
          run("b", {
            table: "experiment_run_records",
            where: "1",
            set: { experiment_id: exp, record: `json_set(s.record, '$.experimentId', ${exp})` },
          });
          run("b", {
            table: "memory_versions",
            where: `s.id IN (${freshVersions})`,
            // Under a settings key this lab never computes: a stranger's memory is never the one a run of this lab opens and answers from.
            set: {
              id: mapped("v", "id"),
              dataset_id: String(datasetId),
              settings_key: `'bundle:${digest!.slice(0, 16)}:' || s.settings_key`,
            },
          });
          const step = (col: string) => `s.${col} + ${off.memory_steps}`;
          run("b", {
            table: "memory_steps",
            where: `s.version_id IN (${freshVersions})`,
            set: { id: step("id"), version_id: mapped("v", "version_id") },
          });
          run("b", {
            table: "memory_entries",
            where: `s.version_id IN (${freshVersions})`,
            set: {
              id: `s.id + ${off.memory_entries}`,
              version_id: mapped("v", "version_id"),
              step_id: step("step_id"),
              expired_by_step_id: step("expired_by_step_id"),
            },
          });
          run("b", { table: "experiment_memory_versions", where: "1", set: { experiment_id: exp, version_id: mapped("v", "version_id") } });
          run("b", {
            table: "jobs",
            where: "1",
            set: {
              id: `s.id + ${off.jobs}`,
              experiment_id: exp,
              // No job is held by a worker of this database: one the bundle says is running waits in the queue.
              status: "CASE WHEN s.status = 'running' THEN 'queued' ELSE s.status END",
              worker: "NULL",
              lease_until: "NULL",
            },
          });
          run("b", { table: "job_scores", where: "1", set: { id: `s.id + ${off.job_scores}`, job_id: `s.job_id + ${off.jobs}` } });
          run("b", {
            table: "case_marks",
            where: "1",
            set: { id: `s.id + ${off.case_marks}`, experiment_id: exp, user_id: mapped("u", "user_id") },
          });
          // A memory version this database had already keeps its own ledger; the jobs' rows all come.
          run("b", {
            table: "llm_calls",
            where: `s.job_id IS NOT NULL OR s.memory_version_id IS NULL OR s.memory_version_id IN (${freshVersions})`,
            set: {
              id: `s.id + ${off.llm_calls}`,
              job_id: `s.job_id + ${off.jobs}`,
              memory_version_id: `CASE WHEN s.memory_version_id IN (${freshVersions}) THEN ${mapped("v", "memory_version_id")} END`,
              experiment_id: `CASE WHEN s.experiment_id = @bundleExperiment THEN ${exp} END`,
              judge_run_id: "NULL",
            },
            params: bound,
          });
          // Its judge batches, as a record of how the judge calls were sent (none is polled again: each has finished).
          if (conn.prepare("SELECT 1 FROM b.sqlite_master WHERE name = 'llm_batches'").get())
            run("b", {
              table: "llm_batches",
              where: "1",
              set: {
                id: `s.id + ${off.llm_batches}`,
                experiment_id: exp,
                judge_run_id: "NULL",
                // One exported while open is never polled from here (this database has not its key).
                status: "CASE WHEN s.status IN ('ingested', 'failed', 'expired', 'cancelled') THEN s.status ELSE 'cancelled' END",
              },
            });
          // The sums the triggers just wrote, as the source had them (its score sums are not kept by triggers).
          for (const table of ["experiment_groups", "experiment_score_sums", "experiment_ledger_sums"])
            run("b", { table, where: "1", set: { experiment_id: exp }, conflict: "replace" });
          run("b", {
            table: "memory_ledger_sums",
            where: `s.version_id IN (${freshVersions})`,
            set: { version_id: mapped("v", "version_id") },
            conflict: "replace",
          });
          conn
            .prepare(
              `INSERT INTO experiment_imports (experiment_id, run_uid, content_digest, source_status, source, source_experiment_id, exported_at, exported_version, dataset_from_bundle, imported_at, imported_by)
               VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
            )
            .run(
              newE,
              meta.runUid,
              digest,
              typeof sourceStatus === "string" && (EXPERIMENT_STATUSES as readonly string[]).includes(sourceStatus)
                ? sourceStatus
                : "invalid",
              o.source ?? path.basename(file),
              e,
              meta.exportedAt,
              meta.exportedVersion,
              fromBundle ? 1 : 0,
              Date.now(),
              o.importedBy ?? null,
            );
        }
        progress("cached replies");
        // A replay's replies answer its requests (a database of its own); an import's are kept apart, for its export only.
        rows.llm_cache = importCacheChunks(conn, "b", "main", file, o.replay ? null : newE);
        progress("embedding_cache");
        // Vectors likewise: a replay's answer its lookups; an import's are kept apart (a planted vector must not steer this lab's retrievals).
        if (o.replay) run("b", { table: "embedding_cache", where: "1", conflict: "ignore" });
        else
          rows.embedding_cache = conn
            .prepare(
              "INSERT OR IGNORE INTO main.bundle_vectors (experiment_id, key, model, dimensions, vector) SELECT ?, key, model, dimensions, vector FROM b.embedding_cache",
            )
            .run(newE).changes;
        rows.experimentId = newE;
      })
      .immediate();
  } finally {
    conn.exec("DETACH DATABASE b");
    if (local) conn.exec("DETACH DATABASE l");
    conn.pragma(`trusted_schema = ${trusted ? "ON" : "OFF"}`);
  }
  if (raced !== null)
    return { experimentId: raced, alreadyImported: true, datasetId: -1, datasetFromBundle: false, ms: Date.now() - started, rows: {} };
  const experimentId = rows.experimentId;
  delete rows.experimentId;
  return {
    experimentId,
    alreadyImported: false,
    datasetId: datasetId!,
    datasetFromBundle: fromBundle,
    ...(datasetName !== null ? { datasetName, datasetReused: reused } : {}),
    ms: Date.now() - started,
    rows,
  };
}
