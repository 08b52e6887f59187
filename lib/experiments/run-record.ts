/**
 * The run record (issue 31): what a run really did, so that tables, figures, exports and the CLI never
 * name a model or a protocol from today's settings. Per role: the endpoint, the model asked for, the
 * models the server said it served (with counts), the parameters the requests carried (from the
 * ledger's columns); the data set's name and hash; the preset and every override of it; the project's
 * version. Written at launch (from the settings the run starts with) and refreshed from the ledger by
 * one aggregate when the run stops (done, paused, cancelled) or on demand (`pal table`, `pal run`),
 * never per call. Stored in experiment_run_records as JSON carrying its own `version`, so a bundle can
 * carry it and a later reader can tell its shape.
 */
import type { Db } from "@/db/client";
import { InvalidInputError } from "@/lib/errors";
import { resolveModelConfig } from "@/lib/llm/config";
import { projectVersion, type ProjectVersion } from "@/lib/project-version";
import { methodKey, parseExperimentConfig, type ExperimentConfig } from "./config";
import { PRESETS, presetForKind, presetOverrides, type PresetOverride } from "./presets";
import { modelRolesOf } from "./required-models";
import { EXPERIMENT_CALLS, otherParamsColumn, parseOtherParams } from "./experiment-calls";
import { protocolAudit, type ProtocolAudit } from "./protocol-audit";
import { launchWarnings } from "./launch-warnings";

export const RUN_RECORD_VERSION = 1;

/** One combination of request parameters and how many requests carried it (null: not sent). */
export type SentParams = {
  temperature: number | null;
  topP: number | null;
  maxTokens: number | null;
  jsonMode: string | null;
  /** Every other parameter the requests carried (presence_penalty, seed, stop...; a role's settings add them); null: none. */
  other?: Record<string, unknown> | null;
  calls: number;
};

export type RoleRecord = {
  /** The role (assistant, user-simulator, judge, embedding) and the configuration called ("judge:gscore"...). */
  role: string;
  config: string;
  endpoint: string | null;
  /** The model the run asked for (the experiment's model for the role, else the configuration's). */
  modelAsked: string | null;
  /** The models the endpoint said answered (the replies' `model`), most first. */
  served: Array<{ model: string; calls: number }>;
  /** What the requests carried, most first. */
  sent: SentParams[];
  /** Ledger rows (cache hits included) and paid requests. */
  calls: number;
  requests: number;
};

export type RunRecord = {
  version: typeof RUN_RECORD_VERSION;
  experimentId: number;
  launchedAt: number;
  /** When the roles were last read from the ledger (null: not yet: only the launch's settings). */
  ledgerAt: number | null;
  project: ProjectVersion;
  dataset: { id: number; name: string; kind: string; hash: string | null };
  preset: { id: string; label: string } | null;
  /**
   * Every setting that differs from the preset; for a custom run on a data set whose kind has a preset,
   * every setting that differs from that kind's preset (`deviationsFrom` names it), so a run that leaves
   * the paper's protocol says so.
   */
  deviations: PresetOverride[];
  deviationsFrom?: string | null;
  /** The protocol the run declares: per role temperature and model, retrieval, repeats, methods with their k and retriever. */
  declared: {
    models: ExperimentConfig["models"];
    retriever: ExperimentConfig["retriever"];
    repeats: number;
    methods: Array<{ key: string; name: string; k: number | null; retriever: string | null }>;
  };
  roles: RoleRecord[];
  /** What the launch warned about (launch-warnings.ts: a bare dialogue simulator); absent in records before issue 40. */
  warnings?: string[];
  /** The protocol audit as of `ledgerAt` (absent until the record is first read from the ledger). */
  audit?: ProtocolAudit;
  /** External methods as their services described themselves when the run started here (./external-services.ts). */
  external?: ExternalServiceRecord[];
};

/**
 * An external method's service as it said it was (GET /): its name and version, and the models it calls
 * outside the run's endpoint (those calls are outside the ledger, the cost and the audit), as the union
 * of what it said at each start of the run; `error`: it did not answer.
 */
export type ExternalServiceRecord = {
  method: string;
  key: string;
  url: string;
  service: string | null;
  memory: string | null;
  outsideModels: string[];
  describedAt: number;
  error?: string;
};

const PENDING_HASH = "pending";

function declaredOf(config: ExperimentConfig): RunRecord["declared"] {
  return {
    models: config.models,
    retriever: config.retriever,
    repeats: config.repeats,
    methods: config.methods.map((m) => ({
      key: methodKey(m),
      name: m.name,
      k: typeof m.options?.k === "number" ? m.options.k : null,
      retriever: typeof m.options?.retriever === "string" ? m.options.retriever : null,
    })),
  };
}

/** What the run changes from its preset, or (a custom run) from its data set kind's preset. */
export function deviationsOf(config: ExperimentConfig, kind: string): { deviations: PresetOverride[]; deviationsFrom: string | null } {
  const p = config.preset ? PRESETS[config.preset] : presetForKind(kind);
  if (!p) return { deviations: [], deviationsFrom: null };
  return { deviations: presetOverrides({ ...config, preset: p.id }), deviationsFrom: p.id };
}

type ExperimentRow = { id: number; config: unknown; datasetHash: string; createdAt: number; dsId: number; dsName: string; dsKind: string };

function experimentRow(db: Db, id: number): ExperimentRow {
  const e = db.$client
    .prepare(
      `SELECT e.id, e.config, e.dataset_hash AS datasetHash, e.created_at AS createdAt, d.id AS dsId, d.name AS dsName, d.kind AS dsKind
       FROM experiments e JOIN datasets d ON d.id = e.dataset_id WHERE e.id = ?`,
    )
    .get(id) as (Omit<ExperimentRow, "config"> & { config: string }) | undefined;
  if (!e) throw new InvalidInputError(`experiment ${id} does not exist`);
  return { ...e, config: JSON.parse(e.config) };
}

/** The roles as the run starts them: today's configuration of each role it calls, under the experiment's model. */
function launchRoles(db: Db, config: ExperimentConfig): RoleRecord[] {
  const names = new Set(modelRolesOf(config));
  for (const j of config.tasks.includes("hicupid") ? config.hicupid.judges : []) names.add(j);
  return [...names].map((name) => {
    const role = name.split(":")[0];
    let endpoint: string | null = null;
    let model: string | null = null;
    try {
      const c = resolveModelConfig(db, name);
      endpoint = c.baseURL;
      model = c.model;
    } catch {
      // A role without a model: the launch is refused elsewhere; the record says unknown.
    }
    const asked = config.models[role as keyof ExperimentConfig["models"]]?.model ?? model;
    return { role, config: name, endpoint, modelAsked: asked, served: [], sent: [], calls: 0, requests: 0 };
  });
}

/** The record of a run as it starts. */
export function launchRecord(db: Db, experimentId: number): RunRecord {
  const e = experimentRow(db, experimentId);
  const config = parseExperimentConfig(e.config);
  return {
    version: RUN_RECORD_VERSION,
    experimentId,
    launchedAt: e.createdAt,
    ledgerAt: null,
    project: projectVersion(),
    dataset: { id: e.dsId, name: e.dsName, kind: e.dsKind, hash: e.datasetHash === PENDING_HASH ? null : e.datasetHash },
    preset: config.preset ? { id: config.preset, label: PRESETS[config.preset].label } : null,
    ...deviationsOf(config, e.dsKind),
    declared: declaredOf(config),
    warnings: launchWarnings(db, e.dsId, e.dsKind, config),
    roles: launchRoles(db, config),
  };
}

type LedgerGroup = {
  role: string;
  config: string;
  endpoint: string;
  model: string;
  served: string | null;
  temperature: number | null;
  topP: number | null;
  maxTokens: number | null;
  jsonMode: string | null;
  other: string | null;
  calls: number;
  requests: number;
};

/** The roles as the ledger has them: one aggregate over the run's calls (its jobs', its memory builds'). */
function ledgerRoles(db: Db, experimentId: number, config: ExperimentConfig, launch: RoleRecord[]): RoleRecord[] {
  const other = otherParamsColumn(db, "c.");
  const rows = db.$client
    .prepare(
      `SELECT c.role, c.config, c.endpoint, c.model, c.served_model AS served, c.temperature, c.top_p AS topP,
         c.max_tokens AS maxTokens, c.json_mode AS jsonMode, ${other} AS other, count(*) AS calls, coalesce(sum(c.cache_hit = 0), 0) AS requests
       FROM llm_calls c WHERE ${EXPERIMENT_CALLS}
       GROUP BY c.role, c.config, c.endpoint, c.model, c.served_model, c.temperature, c.top_p, c.max_tokens, c.json_mode, ${other}`,
    )
    .all({ id: experimentId }) as LedgerGroup[];
  const byConfig = new Map<string, RoleRecord>();
  for (const r of rows) {
    const key = `${r.config}\u0000${r.endpoint}`;
    let rec = byConfig.get(key);
    if (!rec) {
      const asked = config.models[r.role as keyof ExperimentConfig["models"]]?.model ?? r.model;
      rec = { role: r.role, config: r.config, endpoint: r.endpoint, modelAsked: asked, served: [], sent: [], calls: 0, requests: 0 };
      byConfig.set(key, rec);
    }
    rec.calls += r.calls;
    rec.requests += r.requests;
    if (r.served) {
      const s = rec.served.find((x) => x.model === r.served);
      if (s) s.calls += r.requests;
      else rec.served.push({ model: r.served, calls: r.requests });
    }
    const other = parseOtherParams(r.other);
    const p = rec.sent.find(
      (x) =>
        x.temperature === r.temperature &&
        x.topP === r.topP &&
        x.maxTokens === r.maxTokens &&
        x.jsonMode === r.jsonMode &&
        JSON.stringify(x.other ?? null) === JSON.stringify(other),
    );
    if (p) p.calls += r.calls;
    else rec.sent.push({ temperature: r.temperature, topP: r.topP, maxTokens: r.maxTokens, jsonMode: r.jsonMode, other, calls: r.calls });
  }
  const out = [...byConfig.values()];
  for (const r of out) {
    r.served.sort((a, b) => b.calls - a.calls);
    r.sent.sort((a, b) => b.calls - a.calls);
  }
  // A role the run has not called yet keeps its launch entry.
  for (const l of launch) if (!out.some((r) => r.config === l.config)) out.push(l);
  return out;
}

/** Writes the record (insert or replace). */
function store(db: Db, record: RunRecord): void {
  db.$client
    .prepare(
      `INSERT INTO experiment_run_records (experiment_id, record, updated_at) VALUES (?, ?, ?)
       ON CONFLICT(experiment_id) DO UPDATE SET record = excluded.record, updated_at = excluded.updated_at`,
    )
    .run(record.experimentId, JSON.stringify(record), Date.now());
}

/** The stored record with `patch` over it (made from the launch settings when there is none yet). */
export function patchRunRecord(db: Db, experimentId: number, patch: (r: RunRecord) => RunRecord): RunRecord {
  const r = patch(readRunRecord(db, experimentId) ?? launchRecord(db, experimentId));
  store(db, r);
  return r;
}

/** At launch: the record from the settings the run starts with. */
export function writeLaunchRecord(db: Db, experimentId: number): RunRecord {
  const r = launchRecord(db, experimentId);
  store(db, r);
  return r;
}

/**
 * The record brought up to date from the ledger (and the data set's hash once the preparer has it):
 * when the run stops and on demand. A run launched before records existed gets one here, from its
 * ledger (its launch settings are not known: the roles it never called are today's).
 */
export function refreshRunRecord(db: Db, experimentId: number): RunRecord {
  const base = readRunRecord(db, experimentId) ?? launchRecord(db, experimentId);
  const e = experimentRow(db, experimentId);
  const config = parseExperimentConfig(e.config);
  const record: RunRecord = {
    ...base,
    dataset: { ...base.dataset, hash: e.datasetHash === PENDING_HASH ? null : e.datasetHash },
    ...deviationsOf(config, e.dsKind),
    declared: declaredOf(config),
    roles: ledgerRoles(db, experimentId, config, base.roles),
    audit: protocolAudit(db, experimentId),
    ledgerAt: Date.now(),
  };
  store(db, record);
  return record;
}

/** The stored record, or null (none yet). A record of another shape is refused, naming the experiment and its version. */
export function readRunRecord(db: Db, experimentId: number): RunRecord | null {
  const row = db.$client
    .prepare("SELECT record, updated_at AS updatedAt FROM experiment_run_records WHERE experiment_id = ?")
    .get(experimentId) as { record: string; updatedAt: number } | undefined;
  if (!row) return null;
  const r = JSON.parse(row.record) as RunRecord;
  if (r.version !== RUN_RECORD_VERSION)
    throw new InvalidInputError(
      `experiment ${experimentId}: run record version ${String(r.version)} is not one this version reads (${RUN_RECORD_VERSION})`,
    );
  // The row's id, not the one inside the JSON: a record a bundle brought names the run's id in its lab, and
  // writing it back under that id would touch another run's record here.
  return { ...r, experimentId };
}

/**
 * Experiments from before run records get theirs from their ledger once, when the server starts
 * (lib/runtime/startup.ts), so that no page request reads a whole ledger to make one.
 */
export function recordUnrecordedExperiments(db: Db): number[] {
  const ids = db.$client
    .prepare(
      "SELECT e.id FROM experiments e WHERE NOT EXISTS (SELECT 1 FROM experiment_run_records r WHERE r.experiment_id = e.id) ORDER BY e.id",
    )
    .pluck()
    .all() as number[];
  for (const id of ids) refreshRunRecord(db, id);
  return ids;
}

/** The stored record, made from the ledger when the run has none yet (one imported since the server started). */
export function runRecordOf(db: Db, experimentId: number): RunRecord {
  return readRunRecord(db, experimentId) ?? refreshRunRecord(db, experimentId);
}

/**
 * The model a role of the run used, as a table names it: the one model the server said it served,
 * else (no reply named one) the model asked for. `mixed`: the server named several.
 */
export function roleModel(
  record: RunRecord,
  role: string,
): { model: string | null; asked: string | null; served: string[]; mixed: boolean } {
  const recs = record.roles.filter((r) => r.role === role && r.config === role);
  const all = recs.length ? recs : record.roles.filter((r) => r.role === role);
  const served = [...new Set(all.flatMap((r) => r.served.map((s) => s.model)))];
  const asked = [...new Set(all.map((r) => r.modelAsked).filter((m): m is string => !!m))];
  const model = served.length === 1 ? served[0] : served.length > 1 ? served.join(" + ") : (asked[0] ?? null);
  return { model, asked: asked[0] ?? null, served, mixed: served.length > 1 };
}
