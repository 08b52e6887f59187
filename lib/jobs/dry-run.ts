/** What an experiment will cost before it spends anything: calls per method and task by role, tokens expected. */
import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { datasets } from "@/db/schema";
import { NotFoundError } from "@/lib/errors";
import { parseExperimentConfig } from "@/lib/experiments/config";
import { getTask } from "@/lib/tasks/registry";
import { planJobs, type MethodCheck } from "./create";

/**
 * Tokens per call by role: the average of this database's paid calls of that role when there are at
 * least MIN_SAMPLE of them (measured), else the task's own guess.
 */
const MIN_SAMPLE = 20;
export type TokenBasis = Record<string, { prompt: number; completion: number; calls: number }>;

export function measuredTokens(db: Db): TokenBasis {
  const rows = db.$client
    .prepare(
      "SELECT role, count(*) AS n, avg(prompt_tokens) AS p, avg(completion_tokens) AS c FROM llm_calls WHERE status = 'ok' AND cache_hit = 0 GROUP BY role",
    )
    .all() as Array<{ role: string; n: number; p: number; c: number }>;
  return Object.fromEntries(
    rows.filter((r) => r.n >= MIN_SAMPLE).map((r) => [r.role, { prompt: Math.round(r.p), completion: Math.round(r.c), calls: r.n }]),
  );
}

export type DryRunRow = {
  method: string;
  task: string;
  items: number;
  calls: { assistant: number; "user-simulator": number; judge: number; total: number };
  promptTokens: number;
  completionTokens: number;
};

export function dryRun(
  db: Db,
  datasetId: number,
  rawConfig: unknown,
  knownMethod?: MethodCheck,
): { rows: DryRunRow[]; total: DryRunRow; tokenBasis: TokenBasis } {
  const ds = db.select().from(datasets).where(eq(datasets.id, datasetId)).get();
  if (!ds) throw new NotFoundError(`data set ${datasetId} does not exist`);
  const config = parseExperimentConfig(rawConfig);
  const planned = planJobs(db, ds.id, config, ds.kind, knownMethod);
  const basis = measuredTokens(db);
  const rows = new Map<string, DryRunRow>();
  for (const j of planned) {
    const task = getTask(j.task);
    const est = j.phase === 0 ? task.estimate(config) : task.pairs!.estimate(config);
    const key = `${j.method}\u0000${j.task}`;
    const r = rows.get(key) ?? {
      method: j.method,
      task: j.task,
      items: 0,
      calls: { assistant: 0, "user-simulator": 0, judge: 0, total: 0 },
      promptTokens: 0,
      completionTokens: 0,
    };
    r.items++;
    r.calls.assistant += est.assistant;
    r.calls["user-simulator"] += est["user-simulator"];
    r.calls.judge += est.judge;
    const n = est.assistant + est["user-simulator"] + est.judge;
    r.calls.total += n;
    for (const role of ["assistant", "user-simulator", "judge"] as const) {
      const m = basis[role];
      r.promptTokens += est[role] * (m?.prompt ?? est.promptTokens);
      r.completionTokens += est[role] * (m?.completion ?? est.completionTokens);
    }
    rows.set(key, r);
  }
  const list = [...rows.values()];
  const total: DryRunRow = {
    method: "total",
    task: "",
    items: list.reduce((s, r) => s + r.items, 0),
    calls: {
      assistant: list.reduce((s, r) => s + r.calls.assistant, 0),
      "user-simulator": list.reduce((s, r) => s + r.calls["user-simulator"], 0),
      judge: list.reduce((s, r) => s + r.calls.judge, 0),
      total: list.reduce((s, r) => s + r.calls.total, 0),
    },
    promptTokens: list.reduce((s, r) => s + r.promptTokens, 0),
    completionTokens: list.reduce((s, r) => s + r.completionTokens, 0),
  };
  return { rows: list, total, tokenBasis: basis };
}
