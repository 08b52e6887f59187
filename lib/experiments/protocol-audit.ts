/**
 * The protocol audit (issue 31): what every call of a run sent, read from the ledger, against what the
 * run's config declares: each role's temperature (the judges' default 0 when none is set) and output
 * budget, the retrieval kind of each method (embedding requests only where dense retrieval is declared)
 * and its k where a job records its retrieved units, and the repeats. "protocol: as declared", or each
 * mismatch with its counts. One pass of aggregates over the run's ledger rows: run when a run stops
 * (stored in the run record) and by `pal run` / `pal table`, never inside a page request.
 */
import type { Db } from "@/db/client";
import { NotFoundError } from "@/lib/errors";
import { ASSISTANTS } from "@/lib/assistants/registry";
import { JUDGE_TEMPERATURE } from "@/lib/judges/judge";
import { budgetFor } from "@/lib/llm/max-tokens";
import { methodKey, parseExperimentConfig, type ExperimentConfig } from "./config";
import { EXPERIMENT_CALLS } from "./experiment-calls";

export type { AuditMismatch, ProtocolAudit } from "./protocol-audit-text";
export { auditText, mismatchText } from "./protocol-audit-text";
import type { AuditMismatch, ProtocolAudit } from "./protocol-audit-text";

const CHAT_ROLES = ["assistant", "user-simulator", "judge"] as const;

/** The temperature the run declares for a role: the config's, the judges' default 0; undefined: the endpoint's default. */
export function declaredTemperature(config: ExperimentConfig, role: (typeof CHAT_ROLES)[number]): number | undefined {
  const t = config.models[role]?.temperature;
  return role === "judge" ? (t ?? JUDGE_TEMPERATURE) : t;
}

const shown = (v: number | null) => (v === null ? "none (the endpoint's default)" : String(v));

/** How each method retrieves as declared: its own `retriever` option, else the run's for a method that retrieves, else none. */
function declaredRetrieval(config: ExperimentConfig, m: ExperimentConfig["methods"][number]): "bm25" | "dense" | null {
  if (m.options?.retriever === "dense" || m.options?.retriever === "bm25") return m.options.retriever;
  if (typeof m.options?.retriever === "string") return null;
  const a = ASSISTANTS.find((x) => x.id === m.name);
  return a?.usesRetriever ? config.retriever : null;
}

/** Methods whose jobs record exactly their retrieved units (HiCUPID's utterance RAG): k is checked on them. */
const UNIT_RETRIEVERS = new Set(["rag-utterance"]);

export function protocolAudit(db: Db, experimentId: number): ProtocolAudit {
  const e = db.$client.prepare("SELECT config FROM experiments WHERE id = ?").get(experimentId) as { config: string } | undefined;
  if (!e) throw new NotFoundError(`experiment ${experimentId} does not exist`);
  const config = parseExperimentConfig(JSON.parse(e.config));
  const q = (sql: string) => db.$client.prepare(sql);
  const mismatches: AuditMismatch[] = [];
  const checked: string[] = [];

  // Temperatures: every chat row of a role (cache hits carry the request's parameters too).
  const temps = q(
    `SELECT c.role, c.temperature AS t, count(*) AS n FROM llm_calls c
     WHERE c.role IN ('assistant', 'user-simulator', 'judge') AND ${EXPERIMENT_CALLS} GROUP BY c.role, c.temperature`,
  ).all({ id: experimentId }) as Array<{ role: string; t: number | null; n: number }>;
  for (const role of CHAT_ROLES) {
    const rows = temps.filter((r) => r.role === role);
    const of = rows.reduce((s, r) => s + r.n, 0);
    if (!of) continue;
    const want = declaredTemperature(config, role);
    if (want === undefined) {
      checked.push(`${role} temperature: none declared (the endpoint's default)`);
      continue;
    }
    checked.push(`${role} temperature ${want}`);
    for (const r of rows)
      if (r.t === null || Math.abs(r.t - want) > 1e-9)
        mismatches.push({ check: "temperature", subject: role, declared: String(want), found: shown(r.t), count: r.n, of });
  }

  // Output budgets: each paid request's max_tokens against its purpose's budget (a larger one is a re-ask after a cut-off).
  const budgets = q(
    `SELECT c.role, c.purpose, c.max_tokens AS m, count(*) AS n FROM llm_calls c
     WHERE c.cache_hit = 0 AND c.role IN ('assistant', 'user-simulator', 'judge') AND ${EXPERIMENT_CALLS}
     GROUP BY c.role, c.purpose, c.max_tokens`,
  ).all({ id: experimentId }) as Array<{ role: string; purpose: string; m: number | null; n: number }>;
  let regrown = 0;
  for (const role of CHAT_ROLES) {
    const rows = budgets.filter((r) => r.role === role);
    const of = rows.reduce((s, r) => s + r.n, 0);
    if (!of) continue;
    checked.push(`${role} output budget (per purpose, lib/llm/max-tokens.ts)`);
    const short = new Map<string, { declared: number; found: number | null; n: number }>();
    for (const r of rows) {
      const want = budgetFor(r.purpose);
      if (r.m !== null && r.m > want) regrown += r.n;
      if (r.m === null || r.m < want) {
        const key = `${want}|${r.m}`;
        const s = short.get(key) ?? { declared: want, found: r.m, n: 0 };
        s.n += r.n;
        short.set(key, s);
      }
    }
    for (const s of short.values())
      mismatches.push({ check: "output budget", subject: role, declared: String(s.declared), found: shown(s.found), count: s.n, of });
  }

  // Retrieval kind: embedding requests by method (its jobs' and its memory builds').
  const embeds = q(
    `SELECT coalesce(j.method, v.method) AS method, count(*) AS n FROM llm_calls c
     LEFT JOIN jobs j ON j.id = c.job_id
     LEFT JOIN experiment_memory_versions v ON v.version_id = c.memory_version_id AND v.experiment_id = @id
     WHERE c.role = 'embedding' AND ${EXPERIMENT_CALLS} GROUP BY 1`,
  ).all({ id: experimentId }) as Array<{ method: string | null; n: number }>;
  const answered = q(`SELECT method, count(*) AS n FROM jobs WHERE experiment_id = @id AND status = 'done' GROUP BY method`).all({
    id: experimentId,
  }) as Array<{ method: string; n: number }>;
  for (const m of config.methods) {
    const key = methodKey(m);
    const kind = declaredRetrieval(config, m);
    if (!kind || !answered.some((a) => a.method === key)) continue;
    checked.push(`${key} retrieval ${kind}`);
    const n = embeds.find((x) => x.method === key)?.n ?? 0;
    if (kind === "bm25" && n > 0)
      mismatches.push({ check: "retrieval", subject: key, declared: "bm25", found: `${n} embedding requests`, count: n, of: n });
    if (kind === "dense" && n === 0)
      mismatches.push({ check: "retrieval", subject: key, declared: "dense", found: "no embedding request", count: 0, of: 0 });
  }

  // Retrieval k, where a job records its retrieved units.
  for (const m of config.methods) {
    const k = m.options?.k;
    if (!UNIT_RETRIEVERS.has(m.name) || typeof k !== "number") continue;
    const key = methodKey(m);
    const r = q(
      `SELECT count(*) AS of, coalesce(sum(json_array_length(retrieved) > @k), 0) AS over FROM jobs
       WHERE experiment_id = @id AND method = @m AND status = 'done' AND json_type(retrieved) = 'array'`,
    ).get({ id: experimentId, m: key, k }) as { of: number; over: number };
    if (!r.of) continue;
    checked.push(`${key} retrieval k = ${k}`);
    if (r.over)
      mismatches.push({ check: "retrieval k", subject: key, declared: String(k), found: `more than ${k} units`, count: r.over, of: r.of });
  }

  // Repeats: the replicates the jobs ran.
  const reps = q(`SELECT count(DISTINCT replicate) AS n FROM jobs WHERE experiment_id = @id`).get({ id: experimentId }) as { n: number };
  checked.push(`repeats ${config.repeats}`);
  if (reps.n !== config.repeats)
    mismatches.push({
      check: "repeats",
      subject: "run",
      declared: String(config.repeats),
      found: String(reps.n),
      count: Math.abs(reps.n - config.repeats),
      of: config.repeats,
    });

  const calls = (q(`SELECT count(*) AS n FROM llm_calls c WHERE ${EXPERIMENT_CALLS}`).get({ id: experimentId }) as { n: number }).n;
  return { at: Date.now(), calls, asDeclared: mismatches.length === 0, mismatches, checked, regrown };
}
