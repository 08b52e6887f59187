/**
 * The protocol audit (issues 31, 40): what every call of a run sent, read from the ledger, against the run's
 * config and against the paper's protocol (its preset, else its data set kind's). A difference between the
 * requests and the run's config is a mismatch (unintended: the run did not ask for it); a difference between
 * the run's config and the preset is a deviation (intended: the config asks for it), each with the calls that
 * show it. Checked: each role's temperature, output budget and cut-off rule, every other parameter sent (a
 * role's settings may add top_p, presence_penalty, seed...: none is declared, so each is a mismatch), each
 * method's retrieval kind and k (HiCUPID's utterance RAG and Mem-PAL's top-k memories), the repeats; the
 * dialogue task's simulator inputs. One pass of aggregates over the run's ledger rows: run when a run stops
 * (stored in the run record) and by `pal run` / `pal table`, never inside a page request.
 */
import type { Db } from "@/db/client";
import { NotFoundError } from "@/lib/errors";
import { JUDGE_TEMPERATURE } from "@/lib/judges/judge";
import { BENCHMARK_ANSWER, budgetFor, KEPT_AS_RETURNED } from "@/lib/llm/max-tokens";
import { parseExperimentConfig, type ExperimentConfig } from "./config";
import { EXPERIMENT_CALLS, otherParamsColumn, parseOtherParams } from "./experiment-calls";
import { presetChanges, settingName } from "./preset-changes";
import { applyPreset, PRESETS, presetForKind } from "./presets";
import { auditRetrieval, auditSimulator } from "./protocol-audit-retrieval";
import { AuditLog } from "./protocol-audit-log";

export type { AuditDeviation, AuditMismatch, ProtocolAudit } from "./protocol-audit-text";
export { auditLines, auditText, auditVerdict, callsText, deviationText, mismatchText } from "./protocol-audit-text";
import type { ProtocolAudit } from "./protocol-audit-text";

const CHAT_ROLES = ["assistant", "user-simulator", "judge"] as const;
type ChatRole = (typeof CHAT_ROLES)[number];

/** The temperature a config declares for a role: its own, the judges' default 0; undefined: the endpoint's default. */
export function declaredTemperature(config: ExperimentConfig, role: ChatRole): number | undefined {
  const t = config.models[role]?.temperature;
  return role === "judge" ? (t ?? JUDGE_TEMPERATURE) : t;
}

const shown = (v: number | null | undefined) => (v === null || v === undefined ? "none (the endpoint's default)" : String(v));
const cutOffRule = (c: ExperimentConfig | null) => c?.cutOffs ?? "re-ask";
const budgetWords = (c: ExperimentConfig, role: ChatRole) => {
  const b = c.models[role]?.maxTokens;
  if (b !== undefined) return String(b);
  const answers = role === "assistant" && c.answerTokens !== undefined ? `, answers ${c.answerTokens}` : "";
  return `the project's budget per step${answers}`;
};

/** The budget a config declares for a call: the role's, else (a benchmark answer) its answerTokens, else the step's. */
export function declaredBudget(c: ExperimentConfig, role: ChatRole, purpose: string): number {
  const roleBudget = c.models[role]?.maxTokens;
  if (roleBudget !== undefined) return roleBudget;
  if (role === "assistant" && c.answerTokens !== undefined && BENCHMARK_ANSWER.test(purpose)) return c.answerTokens;
  return budgetFor(purpose);
}

/** The preset a run is compared with: its own, else its data set kind's (a custom run on PAL-Set is compared with Mem-PAL). */
function referenceOf(config: ExperimentConfig, kind: string): { id: string; config: ExperimentConfig } | null {
  const p = config.preset ? PRESETS[config.preset] : presetForKind(kind);
  return p ? { id: p.id, config: parseExperimentConfig(applyPreset(p.id)) } : null;
}

function auditRoles(db: Db, id: number, config: ExperimentConfig, ref: ExperimentConfig | null, log: AuditLog): void {
  const q = (sql: string) => db.$client.prepare(sql);
  // Temperatures: every chat row of a role (cache hits carry the request's parameters too).
  const temps = q(
    `SELECT c.role, c.temperature AS t, count(*) AS n FROM llm_calls c
     WHERE c.role IN ('assistant', 'user-simulator', 'judge') AND ${EXPERIMENT_CALLS} GROUP BY c.role, c.temperature`,
  ).all({ id }) as Array<{ role: string; t: number | null; n: number }>;
  for (const role of CHAT_ROLES) {
    const rows = temps.filter((r) => r.role === role);
    const of = rows.reduce((s, r) => s + r.n, 0);
    if (!of) continue;
    const want = declaredTemperature(config, role);
    const paper = ref ? declaredTemperature(ref, role) : want;
    log.covered(settingName(`models.${role}.temperature`));
    log.checked(`${role} temperature ${want ?? "none declared (the endpoint's default)"}`);
    for (const r of rows) {
      const t = r.t ?? undefined;
      if (want !== undefined && t !== want) log.mismatch("temperature", role, shown(want), shown(t), r.n, of);
      else if (t !== paper)
        log.deviation("temperature", role, shown(paper), want === undefined ? `not set, sent ${shown(t)}` : shown(want), r.n, of);
    }
  }

  // Output budgets: each paid request's max_tokens against the role's budget (else its step's: lib/llm/max-tokens.ts).
  const budgets = q(
    `SELECT c.role, c.purpose, c.max_tokens AS m, count(*) AS n FROM llm_calls c
     WHERE c.cache_hit = 0 AND c.role IN ('assistant', 'user-simulator', 'judge') AND ${EXPERIMENT_CALLS}
     GROUP BY c.role, c.purpose, c.max_tokens`,
  ).all({ id }) as Array<{ role: ChatRole; purpose: string; m: number | null; n: number }>;
  const reask = cutOffRule(config) === "re-ask";
  for (const role of CHAT_ROLES) {
    const rows = budgets.filter((r) => r.role === role);
    const of = rows.reduce((s, r) => s + r.n, 0);
    if (!of) continue;
    log.covered(settingName(`models.${role}.maxTokens`));
    if (role === "assistant" && rows.some((r) => BENCHMARK_ANSWER.test(r.purpose))) log.covered(settingName("answerTokens"));
    log.checked(`${role} output budget ${budgetWords(config, role)}`);
    for (const r of rows) {
      const want = declaredBudget(config, role, r.purpose);
      const paper = ref ? declaredBudget(ref, role, r.purpose) : want;
      // A larger budget is the re-ask of a cut-off reply when the run re-asks; else nothing asked for it.
      if (r.m !== null && r.m > want && reask) log.regrown += r.n;
      else if (r.m === null || r.m !== want) log.mismatch("output budget", role, String(want), shown(r.m), r.n, of);
      else if (want !== paper) log.deviation("output budget", role, String(paper), String(want), r.n, of);
    }
  }

  // The cut-off rule: replies kept as returned (an accepted row noted so) and re-asks, against the run's rule and the paper's.
  const kept = (
    q(`SELECT count(*) AS n FROM llm_calls c WHERE c.status = 'ok' AND c.cache_hit = 0 AND c.error = @note AND ${EXPERIMENT_CALLS}`).get({
      id,
      note: KEPT_AS_RETURNED,
    }) as { n: number }
  ).n;
  log.keptAsReturned = kept;
  log.checked(`cut-off replies ${cutOffRule(config)}`);
  log.covered(settingName("cutOffs"));
  if (!reask && log.regrown)
    log.mismatch("cut-off replies", "run", "as-returned", "re-asked with a larger budget", log.regrown, log.regrown);
  if (reask && kept) log.mismatch("cut-off replies", "run", "re-ask", "kept as returned", kept, kept);
  if (ref && cutOffRule(ref) !== cutOffRule(config))
    log.deviation("cut-off replies", "run", cutOffRule(ref), cutOffRule(config), reask ? log.regrown : kept, reask ? log.regrown : kept);

  const other = otherParamsColumn(db, "c.");
  // Every other parameter sent (top_p, presence_penalty, seed...): neither a preset nor a run's config declares one.
  const others = q(
    `SELECT c.role, c.top_p AS topP, ${other} AS other, count(*) AS n FROM llm_calls c
     WHERE c.role IN ('assistant', 'user-simulator', 'judge') AND (c.top_p IS NOT NULL OR ${other} IS NOT NULL)
       AND ${EXPERIMENT_CALLS} GROUP BY c.role, c.top_p, ${other}`,
  ).all({ id }) as Array<{ role: string; topP: number | null; other: string | null; n: number }>;
  const total = (role: string) => temps.filter((r) => r.role === role).reduce((s, r) => s + r.n, 0);
  log.checked("no other sampling parameter (top_p, presence_penalty, seed, ...)");
  for (const r of others) {
    const sent: Record<string, unknown> = { ...(r.topP !== null ? { top_p: r.topP } : {}), ...parseOtherParams(r.other) };
    for (const [k, v] of Object.entries(sent))
      log.mismatch(
        `parameter ${k}`,
        r.role,
        "none (the endpoint's default)",
        `${JSON.stringify(v)} (the role's settings)`,
        r.n,
        total(r.role),
      );
  }
}

export function protocolAudit(db: Db, experimentId: number): ProtocolAudit {
  const e = db.$client
    .prepare("SELECT e.config, e.dataset_id AS datasetId, d.kind FROM experiments e JOIN datasets d ON d.id = e.dataset_id WHERE e.id = ?")
    .get(experimentId) as { config: string; datasetId: number; kind: string } | undefined;
  if (!e) throw new NotFoundError(`experiment ${experimentId} does not exist`);
  const config = parseExperimentConfig(JSON.parse(e.config));
  const ref = referenceOf(config, e.kind);
  const log = new AuditLog();
  auditRoles(db, experimentId, config, ref?.config ?? null, log);
  auditRetrieval(db, experimentId, config, ref?.config ?? null, log);

  // Repeats: the replicates the jobs ran.
  const reps = db.$client.prepare(`SELECT count(DISTINCT replicate) AS n FROM jobs WHERE experiment_id = ?`).get(experimentId) as {
    n: number;
  };
  log.checked(`repeats ${config.repeats}`);
  log.covered("repeats");
  if (reps.n !== config.repeats)
    log.mismatch("repeats", "run", String(config.repeats), String(reps.n), Math.abs(reps.n - config.repeats), config.repeats);
  else if (ref && ref.config.repeats !== config.repeats)
    log.deviation("repeats", "run", String(ref.config.repeats), String(config.repeats), reps.n, reps.n);

  if (config.tasks.includes("dialogue")) auditSimulator(db, e.datasetId, config, log);

  // The rest of what the config changes from the preset (users, tasks, methods...): intended, shown by no call.
  if (ref)
    for (const c of presetChanges({ ...config, preset: ref.id as ExperimentConfig["preset"] }))
      if (!log.isCovered(c.setting)) log.deviation("setting", c.setting, c.preset, c.value, 0, 0);

  const n = db.$client
    .prepare(`SELECT count(*) AS calls, coalesce(sum(c.cache_hit = 0), 0) AS requests FROM llm_calls c WHERE ${EXPERIMENT_CALLS}`)
    .get({ id: experimentId }) as { calls: number; requests: number };
  return log.result({ calls: n.calls, requests: n.requests, hits: n.calls - n.requests, preset: ref?.id ?? null });
}
