/**
 * The protocol audit's checks of retrieval (kind and k, against the run's config and the preset) and of the
 * dialogue simulator's inputs (issue 40 items 13-14). protocol-audit.ts composes them.
 */
import type { Db } from "@/db/client";
import { ASSISTANTS } from "@/lib/assistants/registry";
import { methodKey, type ExperimentConfig } from "./config";
import { EXPERIMENT_CALLS } from "./experiment-calls";
import { launchWarnings } from "./launch-warnings";
import { methodDisplayName } from "./method-choices";
import type { AuditLog } from "./protocol-audit-log";

type Method = ExperimentConfig["methods"][number];

/** How a method retrieves as declared: its own `retriever` option, else the run's for a method that retrieves, else none. */
function declaredRetrieval(config: ExperimentConfig, m: Method): "bm25" | "dense" | null {
  if (m.options?.retriever === "dense" || m.options?.retriever === "bm25") return m.options.retriever;
  if (typeof m.options?.retriever === "string") return null;
  const a = ASSISTANTS.find((x) => x.id === m.name);
  return a?.usesRetriever ? config.retriever : null;
}

/** Methods whose jobs record exactly their retrieved units (HiCUPID's utterance RAG): the whole list is the top k. */
const UNIT_RETRIEVERS = new Set(["rag-utterance"]);

/**
 * Kinds of retrieved entries that a Mem-PAL method takes as its top k (Mem-PAL §5.1: k = 3 for every method):
 * turns, sessions, records, earlier logs, situations, topic outlines, principles retrieved by themselves.
 * Entries given whole (a background aspect, a global summary, the current session's logs) are not counted.
 */
const TOP_K_KINDS = new Set(["utterance", "session", "record", "log", "situation", "topic_outline", "principle", "turn", "event"]);

/** The retrieved lists a job records: an array, or the arrays inside it (solution: generation/selection; dialogue: per turn). */
function retrievedLists(v: unknown, out: unknown[][] = [], depth = 0): unknown[][] {
  if (depth > 3 || v === null || typeof v !== "object") return out;
  if (Array.isArray(v)) {
    if (v.some((x) => x && typeof x === "object" && "kind" in x)) out.push(v);
    else for (const x of v) retrievedLists(x, out, depth + 1);
    return out;
  }
  for (const x of Object.values(v as Record<string, unknown>)) retrievedLists(x, out, depth + 1);
  return out;
}

/** Whether one job's retrieved entries hold more than k of any top-k kind. */
function overK(retrieved: unknown, k: number): boolean {
  for (const list of retrievedLists(retrieved)) {
    const n = new Map<string, number>();
    for (const x of list as Array<{ kind?: unknown }>)
      if (typeof x.kind === "string" && TOP_K_KINDS.has(x.kind)) n.set(x.kind, (n.get(x.kind) ?? 0) + 1);
    if ([...n.values()].some((c) => c > k)) return true;
  }
  return false;
}

function checkK(db: Db, id: number, m: Method, k: number): { of: number; over: number } {
  const key = methodKey(m);
  if (UNIT_RETRIEVERS.has(m.name))
    return db.$client
      .prepare(
        `SELECT count(*) AS of, coalesce(sum(json_array_length(retrieved) > @k), 0) AS over FROM jobs
         WHERE experiment_id = @id AND method = @m AND status = 'done' AND json_type(retrieved) = 'array'`,
      )
      .get({ id, m: key, k }) as { of: number; over: number };
  // Mem-PAL's methods record their entries by kind; read job by job (the audit runs when a run stops, not in a page).
  const rows = db.$client
    .prepare(`SELECT retrieved FROM jobs WHERE experiment_id = ? AND method = ? AND status = 'done' AND retrieved IS NOT NULL`)
    .iterate(id, key) as Iterable<{ retrieved: string }>;
  let of = 0;
  let over = 0;
  for (const r of rows) {
    of++;
    if (overK(JSON.parse(r.retrieved), k)) over++;
  }
  return { of, over };
}

export function auditRetrieval(db: Db, id: number, config: ExperimentConfig, ref: ExperimentConfig | null, log: AuditLog): void {
  // Retrieval kind: embedding requests by method (its jobs' and its memory builds').
  const embeds = db.$client
    .prepare(
      `SELECT coalesce(j.method, v.method) AS method, count(*) AS n FROM llm_calls c
       LEFT JOIN jobs j ON j.id = c.job_id
       LEFT JOIN experiment_memory_versions v ON v.version_id = c.memory_version_id AND v.experiment_id = @id
       WHERE c.role = 'embedding' AND ${EXPERIMENT_CALLS} GROUP BY 1`,
    )
    .all({ id }) as Array<{ method: string | null; n: number }>;
  const answered = db.$client
    .prepare(`SELECT method, count(*) AS n FROM jobs WHERE experiment_id = ? AND status = 'done' GROUP BY method`)
    .all(id) as Array<{ method: string; n: number }>;
  const paperOf = (m: Method) => ref?.methods.find((x) => methodKey(x) === methodKey(m)) ?? null;
  let anyKind = false;
  for (const m of config.methods) {
    const key = methodKey(m);
    const kind = declaredRetrieval(config, m);
    const jobs = answered.find((a) => a.method === key)?.n ?? 0;
    if (!kind || !jobs) continue;
    anyKind = true;
    log.checked(`${key} retrieval ${kind}`);
    log.covered(`${methodDisplayName(m)} retriever`);
    const n = embeds.find((x) => x.method === key)?.n ?? 0;
    if (kind === "bm25" && n > 0) log.mismatch("retrieval", key, "bm25", `${n} embedding requests`, n, n);
    else if (kind === "dense" && n === 0) log.mismatch("retrieval", key, "dense", "no embedding request", 0, 0);
    else {
      const p = paperOf(m);
      const paper = p && ref ? declaredRetrieval(ref, p) : kind;
      if (paper && paper !== kind) log.deviation("retrieval", key, paper, kind, jobs, jobs);
    }
  }
  if (anyKind) log.covered("retriever");

  // Retrieval k: HiCUPID's utterance RAG (the whole list) and Mem-PAL's top-k methods (per kind of entry).
  for (const m of config.methods) {
    const k = m.options?.k;
    if (typeof k !== "number") continue;
    const key = methodKey(m);
    const r = checkK(db, id, m, k);
    if (!r.of) continue;
    log.checked(`${key} retrieval k = ${k}`);
    log.covered(`${methodDisplayName(m)} k`);
    const paper = paperOf(m)?.options?.k;
    if (r.over) log.mismatch("retrieval k", key, String(k), `more than ${k} entries`, r.over, r.of);
    else if (typeof paper === "number" && paper !== k) log.deviation("retrieval k", key, String(paper), String(k), r.of, r.of);
  }
}

/** Item 14: a dialogue run on a data set without the per-user profile files runs its simulator bare. */
export function auditSimulator(db: Db, datasetId: number, config: ExperimentConfig, log: AuditLog): void {
  log.checked("the dialogue simulator's inputs (profile, situation, needs with evidence)");
  log.warnings.push(...launchWarnings(db, datasetId, "palset", config));
}
