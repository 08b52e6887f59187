/**
 * `pal bundle verify`: the bundled run executed again with the network closed. The bundle is imported
 * into a temporary database as a replay (its jobs queued without results, its cached replies kept,
 * no memory), every model configuration it used is pointed at the endpoint and model it named (so each
 * request hashes to the cache key the run used, lib/llm/client.ts), and the jobs run with an offline
 * client: a request the bundle has no reply for fails at once ("no bundled reply") and is counted. Then
 * every job's status, output and scores, the memory the replay built and the paper tables are compared
 * with the bundled ones. Jobs of external methods (a service outside PAL Studio) are not replayed: their
 * results are carried over from the bundle and reported apart (./external-jobs.ts).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { drizzle } from "drizzle-orm/better-sqlite3";
import type Database from "better-sqlite3";
import { openDb, openSqlite, type Db } from "@/db/client";
import * as schema from "@/db/schema";
import { saveModelSetting } from "@/lib/llm/config";
import { canonicalJson } from "@/lib/llm/hash";
import { bindDeps } from "@/lib/experiments/deps";
import { runExperiment } from "@/lib/experiments/worker";
import { paperTableFile } from "@/lib/experiments/paper-table";
import { checkBundle } from "./check";
import { importBundle } from "./import";
import { readCacheChunks } from "./cache-chunks";
import { carryOverExternalJobs, type NotReplayed } from "./external-jobs";

export type JobDifference = { job: number; method: string; task: string; item: string; replicate: number; what: string };
export type MissingReply = { where: string; purpose: string; requests: number };

export type VerifyReport = {
  file: string;
  experiment: { id: number; name: string };
  jobs: number;
  replayed: number;
  identical: number;
  different: JobDifference[];
  /** Requests the replay made that the bundle had no reply for (the code or a prompt changed). */
  missingReplies: MissingReply[];
  requests: number;
  memory: { versions: number; identical: number; different: string[] };
  /**
   * The run's judge batches: their lines whose reply a job used (the bundled ledger), and how many of
   * those the replay asked for and was answered from the bundle (all, when the numbers replay).
   */
  batches: { batches: number; lines: number; replayed: number; notAsked: string[] };
  tables: { identical: boolean; note?: string };
  /**
   * Jobs of external methods: they need the method's service, so the replay did not run them; their
   * results come from the bundle (the jobs built on them and the tables replay over them).
   */
  notReplayed: NotReplayed[];
  status: string;
  ms: number;
  ok: boolean;
};

type JobRow = { id: number; replicate: number; method: string; task: string; item: string; status: string; output: string | null };

function jobsOf(conn: Database.Database, experimentId: number): Map<string, JobRow & { scores: string }> {
  const scores = new Map<number, Record<string, unknown>>();
  for (const s of conn
    .prepare(
      `SELECT s.job_id AS job, s.scorer, s."values" AS v FROM job_scores s JOIN jobs j ON j.id = s.job_id
       WHERE j.experiment_id = ? AND s.version = (SELECT max(version) FROM job_scores x WHERE x.job_id = s.job_id AND x.scorer = s.scorer)`,
    )
    .all(experimentId) as Array<{ job: number; scorer: string; v: string }>) {
    const o = scores.get(s.job) ?? {};
    o[s.scorer] = JSON.parse(s.v);
    scores.set(s.job, o);
  }
  const out = new Map<string, JobRow & { scores: string }>();
  for (const j of conn
    .prepare("SELECT id, replicate, method, task, item_key AS item, status, output FROM jobs WHERE experiment_id = ?")
    .all(experimentId) as JobRow[])
    out.set(`${j.replicate}\u0000${j.method}\u0000${j.task}\u0000${j.item}`, { ...j, scores: canonicalJson(scores.get(j.id) ?? {}) });
  return out;
}

const canon = (text: string | null) => (text === null ? "null" : canonicalJson(JSON.parse(text)));

/**
 * Each model configuration the run's ledger names, saved in the replay database with the endpoint and
 * model the run used and the request parameters every one of its cached requests carried (the
 * configuration's own parameters were among them), so the replay's requests hash as the run's did.
 */
function configureRoles(replay: Db, bundle: Database.Database, file: string): void {
  const configs = bundle
    .prepare("SELECT config, endpoint, model, count(*) AS n FROM llm_calls GROUP BY config, endpoint, model ORDER BY n DESC")
    .all() as Array<{ config: string; endpoint: string; model: string }>;
  const configsOf = new Map<string, Set<string>>();
  for (const r of bundle.prepare("SELECT DISTINCT cache_key AS k, config FROM llm_calls WHERE cache_key IS NOT NULL").all() as Array<{
    k: string;
    config: string;
  }>)
    configsOf.set(r.k, (configsOf.get(r.k) ?? new Set()).add(r.config));
  // A batched call's stored request carries the output budget its batch line was sent with, which the
  // online call adds when it sends (not in its key): those count only for a configuration with no other
  // request, and without the budget.
  const batched = new Set<string>();
  if (bundle.prepare("SELECT 1 FROM sqlite_master WHERE name = 'llm_batches'").get())
    for (const lines of bundle.prepare("SELECT lines FROM llm_batches").pluck().all() as Array<string | null>)
      for (const l of JSON.parse(lines ?? "[]") as Array<{ key: string }>) batched.add(l.key);
  // Per configuration: the parameters (canonical) every one of its requests carried, and their values.
  const seen = new Map<string, Array<{ params: Record<string, unknown>; batched: boolean }>>();
  for (const rows of readCacheChunks(bundle, "main", file))
    for (const r of rows) {
      const params = (JSON.parse(r.request) as { params?: Record<string, unknown> }).params ?? {};
      for (const config of configsOf.get(r.key) ?? []) {
        const list = seen.get(config) ?? [];
        list.push({ params, batched: batched.has(r.key) });
        seen.set(config, list);
      }
    }
  const common = new Map<string, Record<string, string>>();
  const values = new Map<string, Map<string, unknown>>();
  for (const [config, list] of seen) {
    const online = list.filter((x) => !x.batched);
    const use = online.length
      ? online.map((x) => x.params)
      : list.map(({ params: { max_tokens: _a, max_completion_tokens: _b, ...rest } }) => (void _a, void _b, rest));
    for (const params of use) {
      const now = Object.fromEntries(Object.entries(params).map(([k, v]) => [k, canonicalJson(v)]));
      const had = common.get(config);
      if (!had) {
        common.set(config, now);
        values.set(config, new Map(Object.entries(params)));
      } else for (const k of Object.keys(had)) if (had[k] !== now[k]) delete had[k];
    }
  }
  const done = new Set<string>();
  for (const c of configs) {
    if (done.has(c.config)) continue;
    done.add(c.config);
    const params = Object.fromEntries(Object.keys(common.get(c.config) ?? {}).map((k) => [k, values.get(c.config)!.get(k)]));
    saveModelSetting(replay, { name: c.config, baseUrl: c.endpoint, model: c.model, params: Object.keys(params).length ? params : null });
  }
}

/** Entries of each memory version by (user, method), as one comparable string. */
function memoryOf(conn: Database.Database, experimentId: number, skip: ReadonlySet<string>): Map<string, string> {
  const out = new Map<string, string>();
  const versions = conn
    .prepare(
      `SELECT DISTINCT v.id, v.user_key AS user, v.method FROM memory_versions v JOIN experiment_memory_versions x ON x.version_id = v.id
       WHERE x.experiment_id = ?`,
    )
    .all(experimentId) as Array<{ id: number; user: string; method: string }>;
  const entries = conn.prepare(
    "SELECT kind, key, content, valid_from_seq AS f, valid_to_seq AS t FROM memory_entries WHERE version_id = ? ORDER BY kind, key, valid_from_seq, id",
  );
  for (const v of versions.filter((x) => !skip.has(x.method)))
    out.set(
      `${v.user} / ${v.method}`,
      (entries.all(v.id) as Array<{ kind: string; key: string; content: string; f: number; t: number | null }>)
        .map((e) => `${e.kind}\u0000${e.key}\u0000${canon(e.content)}\u0000${e.f}\u0000${e.t}`)
        .join("\n"),
    );
  return out;
}

/**
 * The bundled judge batches' lines that a job used (an accepted ledger row of a job names the key) and
 * whether the replay asked for each one and had it answered from the bundle (a cache hit).
 */
function batchesReplayed(bundled: Database.Database, replay: Database.Database): VerifyReport["batches"] {
  const has = bundled.prepare("SELECT 1 FROM sqlite_master WHERE name = 'llm_batches'").get();
  if (!has) return { batches: 0, lines: 0, replayed: 0, notAsked: [] };
  const rows = bundled.prepare("SELECT id, lines FROM llm_batches ORDER BY id").all() as Array<{ id: number; lines: string | null }>;
  const used = new Set(
    bundled
      .prepare("SELECT DISTINCT cache_key FROM llm_calls WHERE job_id IS NOT NULL AND status = 'ok' AND cache_key IS NOT NULL")
      .pluck()
      .all() as string[],
  );
  const asked = new Set(
    replay.prepare("SELECT DISTINCT cache_key FROM llm_calls WHERE cache_hit = 1 AND cache_key IS NOT NULL").pluck().all() as string[],
  );
  let lines = 0;
  let replayed = 0;
  const notAsked: string[] = [];
  for (const b of rows)
    for (const l of (JSON.parse(b.lines ?? "[]") as Array<{ key: string; purpose: string }>).filter((x) => used.has(x.key))) {
      lines++;
      if (asked.has(l.key)) replayed++;
      else notAsked.push(`batch ${b.id}: ${l.purpose} (${l.key.slice(0, 12)}…)`);
    }
  return { batches: rows.length, lines, replayed, notAsked };
}

function tablesOf(db: Db, id: number): string {
  try {
    return paperTableFile(db, id, "markdown").body;
  } catch (e) {
    return `(no tables: ${e instanceof Error ? e.message : String(e)})`;
  }
}

export type VerifyOptions = {
  /** The database whose data set the replay reads when the bundle carries none (PAL_DB). */
  dataFrom?: Db;
  concurrency?: number;
  onProgress?: (done: number) => void;
  /** The phase and how far along: importing, replaying the jobs (done of total), comparing. */
  onStep?: (done: number, total: number, step: string) => void;
};

export async function verifyBundle(file: string, o: VerifyOptions = {}): Promise<VerifyReport> {
  const started = Date.now();
  const meta = checkBundle(file);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pal-verify-"));
  const bundledCopy = path.join(dir, "bundled.db");
  fs.copyFileSync(file, bundledCopy);
  const bundled = openSqlite(bundledCopy, { fileMustExist: true });
  const replay = openDb(path.join(dir, "replay.db"));
  try {
    o.onStep?.(0, 0, "importing into a temporary database");
    const imported = importBundle(replay, file, { replay: true, dataFrom: o.dataFrom, checked: meta });
    const id = imported.experimentId;
    const total = replay.$client
      .prepare("SELECT count(*) FROM jobs WHERE experiment_id = ? AND status = 'queued'")
      .pluck()
      .get(id) as number;
    o.onStep?.(0, total, "replaying jobs");
    configureRoles(replay, bundled, file);
    const notReplayed = carryOverExternalJobs(replay, id, bundled, meta.experimentId);
    const external = new Set(notReplayed.map((n) => n.label));
    const externalNames = new Set(notReplayed.map((n) => n.method));
    const deps = bindDeps(replay, { clientOptions: { offline: true, retries: 0 } });
    let finished = 0;
    const status = await runExperiment(replay, id, deps, {
      concurrency: o.concurrency ?? 8,
      onProgress: (ev) => {
        if (ev.status !== "done" && ev.status !== "failed") return;
        o.onProgress?.(++finished);
        o.onStep?.(finished, total, "replaying jobs");
      },
    });

    o.onStep?.(total, total, "comparing with the bundle");
    const before = jobsOf(bundled, meta.experimentId);
    const after = jobsOf(replay.$client, id);
    const different: JobDifference[] = [];
    let identical = 0;
    let replayed = 0;
    for (const [k, b] of before) {
      if (external.has(b.method)) continue;
      const a = after.get(k);
      const diff = (what: string) =>
        different.push({ job: b.id, method: b.method, task: b.task, item: b.item, replicate: b.replicate, what });
      if (!a) {
        diff("not in the replay");
        continue;
      }
      if (a.status === "done" || a.status === "failed") replayed++;
      if (a.status !== b.status) diff(`status ${b.status} in the bundle, ${a.status} in the replay`);
      else if (b.status === "done" && canon(a.output) !== canon(b.output)) diff("its output differs");
      else if (a.scores !== b.scores) diff(`its scores differ (bundle ${b.scores.slice(0, 120)}, replay ${a.scores.slice(0, 120)})`);
      else identical++;
    }

    const missing = replay.$client
      .prepare(
        `SELECT CASE WHEN j.id IS NOT NULL THEN 'job ' || j.id || ' (' || j.method || ' / ' || j.task || ' / ' || j.item_key || ')'
                     WHEN v.id IS NOT NULL THEN 'memory build (' || v.method || ', user ' || v.user_key || ')' ELSE 'the run' END AS "where",
                c.purpose, count(*) AS requests
         FROM llm_calls c LEFT JOIN jobs j ON j.id = c.job_id LEFT JOIN memory_versions v ON v.id = c.memory_version_id
         WHERE c.cache_hit = 0 GROUP BY 1, 2 ORDER BY 1, 2`,
      )
      .all() as MissingReply[];
    const requests = missing.reduce((s, m) => s + m.requests, 0);

    const memBefore = memoryOf(bundled, meta.experimentId, externalNames);
    const memAfter = memoryOf(replay.$client, id, externalNames);
    const memDifferent = [...memBefore].filter(([k, v]) => memAfter.get(k) !== v).map(([k]) => k);

    const batches = batchesReplayed(bundled, replay.$client);

    const bundledDb = drizzle(bundled, { schema }) as unknown as Db;
    const tBefore = tablesOf(bundledDb, meta.experimentId);
    const tAfter = tablesOf(replay, id).replaceAll(`Experiment ${id} `, `Experiment ${meta.experimentId} `);
    const tablesSame = tBefore === tAfter;
    const report: VerifyReport = {
      file,
      experiment: { id: meta.experimentId, name: meta.experimentName },
      jobs: [...before.values()].filter((b) => !external.has(b.method)).length,
      replayed,
      identical,
      different,
      missingReplies: missing,
      requests,
      memory: { versions: memBefore.size, identical: memBefore.size - memDifferent.length, different: memDifferent },
      batches,
      tables: tablesSame ? { identical: true } : { identical: false, note: "the paper tables of the replay differ from the bundled ones" },
      notReplayed,
      status,
      ms: Date.now() - started,
      ok: false,
    };
    report.ok = different.length === 0 && requests === 0 && memDifferent.length === 0 && tablesSame && batches.notAsked.length === 0;
    return report;
  } finally {
    replay.$client.close();
    bundled.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
