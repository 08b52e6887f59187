/**
 * `pal bundle export`: one experiment as a small SQLite file another lab imports and replays offline.
 * The file is a migrated PAL Studio database holding only the run: the experiment, its run record, jobs
 * and scores, the memory versions it answered from (steps and entries), the case-study marks and their
 * authors' names, the ledger rows of its jobs and memory builds and the cached replies (compressed,
 * cache-chunks.ts) and vectors they used, plus the data set's row (name, kind, hash) and, with `withData`, the rows of the users the
 * run read. Never copied: API keys (model settings, endpoints), sessions, login attempts, password
 * hashes and e-mail addresses (authors keep their names); the run's judge batches travel with their
 * remote ids and lines (no key); endpoint URLs lose any
 * user:password@ and query string.
 */
import fs from "node:fs";
import path from "node:path";
import { openDb, openSqlite, type Db } from "@/db/client";
import { ConflictError, InvalidInputError, NotFoundError } from "@/lib/errors";
import { projectVersionText } from "@/lib/project-version";
import { copyRows, type CopyStep } from "./copy";
import { dataSteps } from "./data-steps";
import { BUNDLE_FORMAT, META_DDL, registerFunctions, runUidOf, writeMeta } from "./format";
import { writeCacheChunks } from "./cache-chunks";

export type ExportResult = { file: string; bytes: number; ms: number; rows: Record<string, number> };

const UNFINISHED = ["preparing", "queued", "running"];

/** The steps that copy experiment `e` from `src` into the bundle (main). */
function runSteps(e: number): CopyStep[] {
  const jobs = `SELECT id FROM src.jobs WHERE experiment_id = ${e}`;
  const versions = `SELECT version_id FROM src.experiment_memory_versions WHERE experiment_id = ${e}`;
  const sums = (table: string): CopyStep => ({ table, where: `s.experiment_id = ${e}`, conflict: "replace" });
  const uses = `SELECT key FROM src.embedding_uses WHERE scope = 'experiment:${e}' OR scope IN (SELECT 'memory:' || version_id FROM src.experiment_memory_versions WHERE experiment_id = ${e})`;
  return [
    { table: "datasets", where: `s.id = (SELECT dataset_id FROM src.experiments WHERE id = ${e})`, set: { imported_by: "NULL" } },
    {
      table: "users",
      where: `s.id IN (SELECT created_by FROM src.experiments WHERE id = ${e} UNION SELECT user_id FROM src.case_marks WHERE experiment_id = ${e})`,
      // Only the name travels: the mark's author as the case studies show it.
      set: {
        email: `'author-' || s.id || '@bundle.invalid'`,
        password_hash: "''",
        role: "'annotator'",
        disabled: "1",
        last_login_at: "NULL",
      },
    },
    { table: "experiments", where: `s.id = ${e}` },
    { table: "experiment_run_records", where: `s.experiment_id = ${e}` },
    { table: "memory_versions", where: `s.id IN (${versions})`, set: { builder: "NULL", lease_until: "NULL" } },
    { table: "memory_steps", where: `s.version_id IN (${versions})` },
    { table: "memory_entries", where: `s.version_id IN (${versions})` },
    { table: "experiment_memory_versions", where: `s.experiment_id = ${e}` },
    { table: "jobs", where: `s.experiment_id = ${e}`, set: { worker: "NULL", lease_until: "NULL" } },
    { table: "job_scores", where: `s.job_id IN (${jobs})` },
    { table: "case_marks", where: `s.experiment_id = ${e}` },
    {
      table: "llm_calls",
      where: `s.job_id IN (${jobs}) OR s.memory_version_id IN (${versions}) OR s.experiment_id = ${e}`,
      set: {
        endpoint: "pal_strip_url(s.endpoint)",
        judge_run_id: "NULL",
        memory_version_id: `CASE WHEN s.memory_version_id IN (${versions}) THEN s.memory_version_id END`,
      },
    },
    // The judge batches its judge calls went through (their replies are among the cached ones; verify checks the replay asks each).
    {
      table: "llm_batches",
      where: `s.experiment_id = ${e}`,
      set: { endpoint: "pal_strip_url(s.endpoint)", judge_run_id: "NULL" },
    },
    // Vectors are cached by (endpoint, model, text) without a ledger key: those the run used (embedding_uses,
    // lib/llm/vector-uses.ts); for a run made before they were recorded, those of the models it embedded with.
    {
      table: "embedding_cache",
      where: `s.key IN (${uses}) OR (NOT EXISTS (${uses}) AND s.model IN (SELECT model FROM main.llm_calls WHERE role = 'embedding'))`,
    },
    sums("experiment_groups"),
    sums("experiment_score_sums"),
    sums("experiment_ledger_sums"),
    { table: "memory_ledger_sums", where: `s.version_id IN (${versions})`, conflict: "replace" },
  ];
}

/** Writes experiment `id` of `db` as a bundle to `out` (refused when `out` exists). */
export type ExportOptions = {
  withData?: boolean;
  /** Called before each table is copied: steps done, steps in all, the table. */
  onStep?: (done: number, total: number, table: string) => void;
};

export function exportBundle(db: Db, id: number, out: string, o: ExportOptions = {}): ExportResult {
  const started = Date.now();
  const exp = db.$client
    .prepare(
      "SELECT e.*, d.name AS dataset_name, d.kind AS dataset_kind FROM experiments e JOIN datasets d ON d.id = e.dataset_id WHERE e.id = ?",
    )
    .get(id) as
    | {
        id: number;
        name: string;
        status: string;
        config_hash: string;
        dataset_hash: string;
        created_at: number;
        dataset_id: number;
        dataset_name: string;
        dataset_kind: string;
      }
    | undefined;
  if (!exp) throw new NotFoundError(`experiment ${id} does not exist`);
  if (UNFINISHED.includes(exp.status))
    throw new ConflictError(`experiment ${id} is ${exp.status}: a bundle holds a run that has stopped (pause it or let it finish)`);
  const target = path.resolve(out);
  if (fs.existsSync(target)) throw new ConflictError(`${out} exists already; choose another --out file or remove it first`);
  if (!fs.existsSync(path.dirname(target))) throw new InvalidInputError(`--out: the folder ${path.dirname(target)} does not exist`);
  const source = db.$client.name;
  if (!source || source === ":memory:") throw new InvalidInputError("bundle export needs a database file");

  const partial = `${target}.partial-${process.pid}`;
  fs.closeSync(fs.openSync(partial, "wx", 0o600)); // private from its first byte, as openDb makes a database
  const pre = openSqlite(partial);
  for (const ddl of META_DDL) pre.exec(ddl);
  pre.close();
  const bundle = openDb(partial);
  const conn = bundle.$client;
  const rows: Record<string, number> = {};
  try {
    registerFunctions(conn);
    // A file of our own until it is renamed into place (a failure removes it): no journal to write twice.
    conn.pragma("journal_mode = OFF");
    conn.pragma("synchronous = OFF");
    // The items' text index is rebuilt by whoever imports the jobs: not worth its bytes here.
    for (const t of ["jobs_text_insert", "jobs_text_update", "jobs_text_delete"]) conn.exec(`DROP TRIGGER IF EXISTS ${t}`);
    // Nor are the ledger's indexes: an import reads the ledger whole, and the importing database has its own.
    for (const name of conn
      .prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'llm_calls' AND sql IS NOT NULL")
      .pluck()
      .all() as string[])
      conn.exec(`DROP INDEX "${name}"`);
    conn.exec(`ATTACH DATABASE '${source.replace(/'/g, "''")}' AS src`);
    // One transaction: every table is read from one snapshot of the source, whoever writes meanwhile.
    conn.transaction(() => {
      const users = "SELECT user_key FROM main.jobs WHERE user_key IS NOT NULL UNION SELECT user_key FROM main.memory_versions";
      const steps = [...runSteps(id), ...(o.withData ? dataSteps(exp.dataset_kind, "src", exp.dataset_id, users, null) : [])];
      steps.forEach((step, i) => {
        o.onStep?.(i, steps.length + 1, step.table);
        rows[step.table] = (rows[step.table] ?? 0) + copyRows(conn, "src", "main", step);
      });
      o.onStep?.(steps.length, steps.length + 1, "cached replies");
      // The replies the ledger names, compressed, in the order each step first asked (its repeats side by side).
      // An imported run's replies and vectors are those its bundle brought (bundle_replies, bundle_vectors), kept apart from this lab's caches.
      const imported = conn.prepare("SELECT 1 FROM src.experiment_imports WHERE experiment_id = ?").get(id) ? id : null;
      if (imported !== null)
        rows.embedding_cache =
          (rows.embedding_cache ?? 0) +
          conn
            .prepare(
              "INSERT OR IGNORE INTO main.embedding_cache (key, model, dimensions, vector, created_at) SELECT key, model, dimensions, vector, created_at FROM src.bundle_vectors WHERE experiment_id = ?",
            )
            .run(imported).changes;
      rows.llm_cache = writeCacheChunks(
        conn,
        "src",
        "main",
        "SELECT cache_key FROM main.llm_calls WHERE cache_key IS NOT NULL GROUP BY cache_key ORDER BY min(purpose), min(id)",
        imported,
      );
      writeMeta(conn, "main", {
        format: BUNDLE_FORMAT,
        runUid: runUidOf({ configHash: exp.config_hash, datasetHash: exp.dataset_hash, createdAt: exp.created_at, name: exp.name }),
        sourceExperimentId: id,
        exportedAt: Date.now(),
        exportedVersion: projectVersionText(),
        datasetName: exp.dataset_name,
        datasetKind: exp.dataset_kind,
        datasetHash: exp.dataset_hash,
        withData: !!o.withData,
      });
    })();
    conn.exec("DETACH DATABASE src");
    conn.pragma("journal_mode = DELETE");
    conn.close();
    fs.renameSync(partial, target);
    return { file: target, bytes: fs.statSync(target).size, ms: Date.now() - started, rows };
  } catch (e) {
    if (conn.open) conn.close();
    for (const f of [partial, `${partial}-wal`, `${partial}-shm`]) fs.rmSync(f, { force: true });
    throw e;
  }
}
