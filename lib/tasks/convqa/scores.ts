/**
 * The metrics of the two benchmark tasks, as means over items: each job's score values become named
 * values (convValues) and a metric is the mean of a name over the items that have it — the same rule for
 * the task's metrics() and the results' running sums (lib/experiments/task-sums.ts).
 * LoCoMo: F1 overall and per category (1-5), evidence recall where the method retrieves dialogue.
 * LongMemEval: judge accuracy overall and per question type (abstention questions counted in their type,
 * as evaluate_qa.py counts them, and apart as `accuracy.abstention`), the task-averaged accuracy;
 * retrieval recall/NDCG without them.
 */
import { LME_TYPES } from "@/lib/datasets/longmemeval/read";
import { mean } from "../types";

export const CONVQA_SCORE_VERSION = 1;
/** 2: LongMemEval questions without a user-side has_answer turn left out, "noans" answer sessions not correct (cf920ec). */
export const LME_RETRIEVAL_VERSION = 2;

type JobValues = Record<string, Record<string, number | null>>;

export function convValues(v: JobValues): Record<string, number> {
  const out: Record<string, number> = {};
  const put = (k: string, x: unknown) => {
    if (typeof x === "number" && Number.isFinite(x)) out[k] = x;
  };
  const l = v.locomo;
  if (l) {
    put("f1", l.f1);
    put(`f1.cat${l.category}`, l.f1);
    const e = v.evidence?.recall;
    put("evidenceRecall", e);
    put(`evidenceRecall.cat${l.category}`, e);
  }
  const j = v.judge;
  if (j) {
    put("accuracy", j.correct);
    const type = typeof j.type === "number" ? LME_TYPES[j.type] : undefined;
    if (type) put(`accuracy.${type}`, j.correct);
    if (j.abstention === 1) put("accuracy.abstention", j.correct);
  }
  for (const [k, x] of Object.entries(v.retrieval ?? {})) if (k !== "k") put(`retrieval.${k}`, x);
  return out;
}

export function convMetrics(items: JobValues[]): Record<string, number | null> {
  const by = new Map<string, number[]>();
  for (const it of items)
    for (const [k, x] of Object.entries(convValues(it))) {
      const list = by.get(k) ?? [];
      list.push(x);
      by.set(k, list);
    }
  return withTaskAverage(Object.fromEntries([...by.keys()].sort().map((k) => [k, mean(by.get(k)!)])));
}

/**
 * LongMemEval's "Task-averaged Accuracy" (print_qa_metrics.py, commit b11ff72): the mean of the question
 * types' accuracies, beside the overall one (the mean over questions). Over the types the run has (the
 * public script, over all six, has every type in the full file). Added to a group's metrics, from its means.
 */
export function withTaskAverage(m: Record<string, number | null>): Record<string, number | null> {
  const types = LME_TYPES.map((t) => m[`accuracy.${t}`]).filter((x): x is number => typeof x === "number");
  return types.length ? { ...m, "accuracy.taskAveraged": mean(types) } : m;
}
