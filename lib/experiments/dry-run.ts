/** What an experiment will cost before it spends anything: calls per method and task by role, tokens expected. */
import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { datasets } from "@/db/schema";
import { NotFoundError } from "@/lib/errors";
import { canonicalJson, methodKey, parseExperimentConfig, referenceMethod } from "@/lib/experiments/config";
import { BUILD_TOKEN_GUESS, estimateMemoryBuild, type MemoryBuildEstimate } from "@/lib/assistants/core/build-estimate";
import { ASSISTANTS } from "@/lib/assistants/registry";
import { datasetById } from "@/lib/assistants/core/sessions";
import type { CallRange } from "@/lib/assistants/core/types";
import { ModelClient } from "@/lib/llm/client";
import { getTask } from "@/lib/tasks/registry";
import type { CallEstimate } from "@/lib/tasks/types";
import { getExperimentLimits, overLimits, type ExperimentLimits, type LaunchSize } from "@/lib/experiments/limits";
import { countJobs, pairMethod, planItems, type MethodCheck } from "./create";
import { sharedBuildSavings } from "./build-sharing";
import { runRoleParams } from "./job-model";
import { launchWarnings } from "./launch-warnings";

/**
 * Tokens per call by role: the average of this database's paid calls of that role when there are at
 * least MIN_SAMPLE of them (measured), else the task's own guess.
 */
const MIN_SAMPLE = 20;
export type TokenBasis = Record<string, { prompt: number; completion: number; calls: number }>;

/** `build`: over memory-building calls only (memory_version_id set), for the build rows. */
export function measuredTokens(db: Db, build = false): TokenBasis {
  const rows = db.$client
    .prepare(
      // Calls whose usage is unknown (not reported, or not believed) say nothing of a call's size; a count
      // below 0 (a ledger from before usage was checked, usage-check.ts) is read as 0: no estimate goes negative.
      `SELECT role, count(*) AS n, avg(max(prompt_tokens, 0)) AS p, avg(max(completion_tokens, 0)) AS c FROM llm_calls
       WHERE status = 'ok' AND cache_hit = 0 AND usage_unknown = 0${build ? " AND memory_version_id IS NOT NULL" : ""} GROUP BY role`,
    )
    .all() as Array<{ role: string; n: number; p: number; c: number }>;
  return Object.fromEntries(
    rows.filter((r) => r.n >= MIN_SAMPLE).map((r) => [r.role, { prompt: Math.round(r.p), completion: Math.round(r.c), calls: r.n }]),
  );
}

export type DryRunRow = {
  method: string;
  task: string;
  /** Jobs: the items times the runs (`runs`, the config's repeats). */
  items: number;
  runs: number;
  calls: { assistant: number; "user-simulator": number; judge: number; total: number };
  promptTokens: number;
  completionTokens: number;
};

/**
 * Building one method's memory for the experiment's users (once per data set, user, method and
 * settings; every task shares it): calls per role, min–max where the count depends on model answers.
 */
export type BuildRow = {
  method: string;
  users: number;
  /** Users whose memory is already complete: they cost nothing. */
  usersBuilt: number;
  /** Null when the method states no estimate. */
  calls: Record<string, CallRange> | null;
  total: CallRange | null;
  exact: boolean;
  note: string | null;
  promptTokens: CallRange | null;
  completionTokens: CallRange | null;
  /** The builds that make (and pay for) part of this one's calls with the same requests: those calls are left out here. */
  sharedWith?: string[];
};

export type DryRunResult = {
  rows: DryRunRow[];
  total: DryRunRow;
  tokenBasis: TokenBasis;
  builds: BuildRow[];
  buildTokenBasis: TokenBasis;
  /** Answering + memory building (methods with no stated estimate left out). */
  withBuilds: { calls: CallRange; promptTokens: CallRange; completionTokens: CallRange };
  /**
   * The worst case: every reply invalid, each call asked `triesPerCall` times (regenerations) in each of
   * `jobAttempts` job attempts. The spend guard pauses a run long before (`guardProbe` attempts when none succeeds).
   */
  worstCase: { attempts: number; triesPerCall: number; jobAttempts: number; guardProbe: number };
  /** The launch's size against the limits in force ("N jobs of max M"); `over` lists each limit it passes. */
  limits: LaunchSize & { max: ExperimentLimits; over: string[] };
  /** What makes the run not the paper's protocol beyond its config (launch-warnings.ts). */
  warnings: string[];
};

/** Tries of one call when its replies are invalid: the first and the model client's two regenerations. */
const TRIES_PER_CALL = 3;

const range = (min: number, max: number): CallRange => ({ min, max });

function buildRows(
  db: Db,
  datasetId: number,
  config: ReturnType<typeof parseExperimentConfig>,
  users: string[],
  basis: TokenBasis,
): BuildRow[] {
  const ds = datasetById(db, datasetId);
  const llm = ModelClient.create(db);
  const zero = range(0, 0);
  const rows: Array<BuildRow | { key: string; estimate: MemoryBuildEstimate }> = [];
  const seen = new Map<string, string>();
  for (const m of config.methods) {
    // HiCUPID's context settings keep no memory.
    if (!ASSISTANTS.some((a) => a.id === m.name)) continue;
    // Two labels of the same method and options share one memory: it is built (and paid) once.
    const id = `${m.name}\u0000${canonicalJson(m.options ?? {})}`;
    const first = seen.get(id);
    if (first) {
      rows.push({
        method: methodKey(m),
        users: users.length,
        usersBuilt: users.length,
        calls: {},
        total: zero,
        exact: true,
        note: `shares the memory of ${first}`,
        promptTokens: zero,
        completionTokens: zero,
      });
      continue;
    }
    seen.set(id, methodKey(m));
    rows.push({
      key: methodKey(m),
      estimate: estimateMemoryBuild(db, {
        dataset: ds,
        method: m.name,
        options: m.options,
        retriever: config.retriever,
        roleParams: runRoleParams(config),
        users,
        llm,
      }),
    });
  }
  // Parts several builds make with the same requests (H2Memory and its ablations): paid once per user.
  const estimates = rows.flatMap((r) => ("estimate" in r ? [{ method: r.key, shared: r.estimate.shared }] : []));
  const savings = sharedBuildSavings(estimates);
  let next = 0;
  return rows.map((r) => {
    if (!("estimate" in r)) return r;
    const e = r.estimate;
    const saving = savings[next++];
    const row: BuildRow = {
      method: r.key,
      users: e.users,
      usersBuilt: e.usersBuilt,
      calls: e.calls as Record<string, CallRange> | null,
      total: null,
      exact: e.exact,
      note: e.note,
      promptTokens: null,
      completionTokens: null,
    };
    if (e.calls) {
      const calls: Record<string, CallRange> = {};
      for (const [role, c] of Object.entries(e.calls)) {
        const s = saving.saved[role] ?? zero;
        calls[role] = range(c.min - s.min, c.max - s.max);
      }
      row.calls = calls;
      row.total = range(0, 0);
      row.promptTokens = range(0, 0);
      row.completionTokens = range(0, 0);
      for (const [role, c] of Object.entries(calls)) {
        const per = basis[role] ?? BUILD_TOKEN_GUESS[role as keyof typeof BUILD_TOKEN_GUESS] ?? { prompt: 0, completion: 0 };
        for (const k of ["min", "max"] as const) {
          row.total[k] += c[k];
          row.promptTokens[k] += c[k] * per.prompt;
          row.completionTokens[k] += c[k] * per.completion;
        }
      }
      if (saving.paidBy.length) {
        const saved = Object.values(saving.saved).reduce((acc, x) => range(acc.min + x.min, acc.max + x.max), zero);
        const n = saved.min === saved.max ? String(saved.min) : `${saved.min}–${saved.max}`;
        const shared = `${n} calls shared with ${saving.paidBy.join(", ")} (the same requests: cache hits, counted there)`;
        // Nothing left of its own: the bounds' explanation belongs to the build that pays.
        if (row.total.max === 0) {
          row.exact = true;
          row.note = shared;
        } else row.note = row.note ? `${shared}; ${row.note}` : shared;
        row.sharedWith = saving.paidBy;
      }
    }
    return row;
  });
}

export function dryRun(db: Db, datasetId: number, rawConfig: unknown, knownMethod?: MethodCheck): DryRunResult {
  const ds = db.select().from(datasets).where(eq(datasets.id, datasetId)).get();
  if (!ds) throw new NotFoundError(`data set ${datasetId} does not exist`);
  const config = parseExperimentConfig(rawConfig);
  const plan = planItems(db, ds.id, config, ds.kind, knownMethod);
  const basis = measuredTokens(db);
  // Every job of a (method, task) row has the same estimate, so rows are counted, not enumerated:
  // an estimate of a launch far over the limits costs no more than one within them.
  const list: DryRunRow[] = [];
  const addRow = (method: string, taskName: string, items: number, est: CallEstimate) => {
    const r: DryRunRow = {
      method,
      task: taskName,
      items,
      runs: config.repeats,
      calls: {
        assistant: est.assistant * items,
        "user-simulator": est["user-simulator"] * items,
        judge: est.judge * items,
        total: (est.assistant + est["user-simulator"] + est.judge) * items,
      },
      promptTokens: 0,
      completionTokens: 0,
    };
    for (const role of ["assistant", "user-simulator", "judge"] as const) {
      const m = basis[role];
      r.promptTokens += est[role] * items * (m?.prompt ?? est.promptTokens);
      r.completionTokens += est[role] * items * (m?.completion ?? est.completionTokens);
    }
    list.push(r);
  };
  for (const t of plan.tasks) {
    const task = getTask(t.task);
    const n = t.items.length * config.repeats;
    for (const m of config.methods) addRow(methodKey(m), t.task, n, task.estimate(config));
    if (t.pairs)
      for (const m of config.methods)
        if (methodKey(m) !== referenceMethod(config))
          addRow(pairMethod(referenceMethod(config), methodKey(m)), t.task, n, task.pairs!.estimate(config));
  }
  const total: DryRunRow = {
    method: "total",
    task: "",
    items: list.reduce((s, r) => s + r.items, 0),
    runs: config.repeats,
    calls: {
      assistant: list.reduce((s, r) => s + r.calls.assistant, 0),
      "user-simulator": list.reduce((s, r) => s + r.calls["user-simulator"], 0),
      judge: list.reduce((s, r) => s + r.calls.judge, 0),
      total: list.reduce((s, r) => s + r.calls.total, 0),
    },
    promptTokens: list.reduce((s, r) => s + r.promptTokens, 0),
    completionTokens: list.reduce((s, r) => s + r.completionTokens, 0),
  };
  const users = [...new Set(plan.tasks.flatMap((t) => t.items.map((i) => i.userKey)))];
  const buildTokenBasis = measuredTokens(db, true);
  const builds = buildRows(db, ds.id, config, users, buildTokenBasis);
  const sum = (pick: (b: BuildRow) => CallRange | null, base: number): CallRange =>
    builds.reduce(
      (acc, b) => {
        const r = pick(b);
        return r ? range(acc.min + r.min, acc.max + r.max) : acc;
      },
      range(base, base),
    );
  const withBuilds = {
    calls: sum((b) => b.total, total.calls.total),
    promptTokens: sum((b) => b.promptTokens, total.promptTokens),
    completionTokens: sum((b) => b.completionTokens, total.completionTokens),
  };
  const worstCase = {
    attempts: withBuilds.calls.max * TRIES_PER_CALL * config.maxAttempts,
    triesPerCall: TRIES_PER_CALL,
    jobAttempts: config.maxAttempts,
    guardProbe: 20,
  };
  const max = getExperimentLimits(db);
  const size = { methods: config.methods.length, repeats: config.repeats, jobs: countJobs(plan) };
  const limits = { ...size, max, over: overLimits(size, max) };
  // Before anything is spent: what would make the run not the paper's protocol beyond its config (issue 40 item 14).
  const warnings = launchWarnings(db, ds.id, ds.kind, config);
  return { rows: list, total, tokenBasis: basis, builds, buildTokenBasis, withBuilds, worstCase, limits, warnings };
}
