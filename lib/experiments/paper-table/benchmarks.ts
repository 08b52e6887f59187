/**
 * Per-category (LoCoMo) and per-type (LongMemEval) tables of a run: each method's F1 / judge accuracy by
 * category or question type and its retrieval scores, × 100, mean ± sd over runs, † against the reference.
 * No published rows yet: the benchmarks' papers report other models and memory systems (docs/experiments.md).
 */
import { methodKey } from "../config";
import { memPalName } from "./names";
import { cell, rankRows, row, runsNote, type TableInput } from "./parts";
import { SIG_LEVEL, type Column, type PaperTable } from "./types";

const col = (key: string, label: string): Column => ({ key, label, latex: label, digits: 1, rank: true });

const LOCOMO_COLUMNS: Column[] = [
  ...[1, 2, 3, 4, 5].map((c) => col(`locomo.f1.cat${c}`, `Cat. ${c}`)),
  col("locomo.f1", "Overall"),
  col("locomo.evidenceRecall", "Evidence recall"),
];

const LME_TYPES: Array<[string, string]> = [
  ["single-session-user", "SS-user"],
  ["single-session-assistant", "SS-assistant"],
  ["single-session-preference", "SS-pref."],
  ["multi-session", "Multi-session"],
  ["knowledge-update", "Knowledge upd."],
  ["temporal-reasoning", "Temporal"],
];
const LME_COLUMNS: Column[] = [
  ...LME_TYPES.map(([t, label]) => col(`longmemeval.accuracy.${t}`, label)),
  col("longmemeval.accuracy.abstention", "Abstention"),
  col("longmemeval.accuracy.taskAveraged", "Task-avg."),
  col("longmemeval.accuracy", "Overall"),
  col("longmemeval.retrieval.sessionRecallAny", "Recall (session)"),
  col("longmemeval.retrieval.sessionNdcg", "NDCG (session)"),
];

function runTable(input: TableInput, task: string, columns: Column[]) {
  const rows = input.summary.filter((s) => s.task === task);
  if (!rows.length) return null;
  let maxRuns = 0;
  const run = input.methods
    .filter((m) => rows.some((s) => s.method === methodKey(m)))
    .map((m) => {
      const key = methodKey(m);
      const s = rows.find((x) => x.method === key)!;
      maxRuns = Math.max(maxRuns, s.runs);
      const cells = columns.map((c) => {
        const x = s.metrics[c.key.slice(task.length + 1)];
        const mean = typeof x?.mean === "number" ? x.mean * 100 : null;
        const sd = s.runs > 1 && typeof x?.sd === "number" ? x.sd * 100 : null;
        return cell(mean, sd, key !== input.reference && typeof x?.p === "number" && x.p < SIG_LEVEL);
      });
      return row(key, memPalName(m), cells, s.runs);
    });
  rankRows(run, columns);
  const refSpec = input.methods.find((m) => methodKey(m) === input.reference);
  return { run, maxRuns, refName: refSpec ? memPalName(refSpec).name : input.reference };
}

const sigNote = (maxRuns: number, refName: string) =>
  maxRuns > 1
    ? `†: p < 0.01 against ${refName} (two-sided paired t-test over the runs).`
    : `No significance mark: the paired t-test against ${refName} needs at least 2 runs.`;

export function locomoTable(input: TableInput): PaperTable | null {
  const t = runTable(input, "locomo", LOCOMO_COLUMNS);
  if (!t) return null;
  return {
    id: "locomo-categories",
    title: "LoCoMo question answering: F1 by category",
    stub: "Methods",
    withModel: false,
    groups: [
      { label: "F1 (× 100)", latex: "F1 ($\\times 100$)", span: 6 },
      { label: "", latex: "", span: 1 },
    ],
    columns: LOCOMO_COLUMNS,
    sections: [{ kind: "run", label: "This run", rows: t.run }],
    notes: [
      `${runsNote(t.maxRuns)} F1 as LoCoMo's task_eval/evaluation.py computes it (category 1: multi-answer F1; 3: the reference up to its first ';'; 5: 1 when the answer says the conversation does not mention it), × 100. Evidence recall: the share of an item's evidence turns in what the method retrieved (methods that retrieve dialogue only), × 100.`,
      "Bold: the best of this run's methods per column; underlined: the second.",
      sigNote(t.maxRuns, t.refName),
    ],
  };
}

export function longmemevalTable(input: TableInput): PaperTable | null {
  const t = runTable(input, "longmemeval", LME_COLUMNS);
  if (!t) return null;
  return {
    id: "longmemeval-types",
    title: "LongMemEval question answering: judge accuracy by question type",
    stub: "Methods",
    withModel: false,
    groups: [
      { label: "Accuracy (× 100)", latex: "Accuracy ($\\times 100$)", span: 9 },
      { label: "Retrieval (× 100)", latex: "Retrieval ($\\times 100$)", span: 2 },
    ],
    columns: LME_COLUMNS,
    sections: [{ kind: "run", label: "This run", rows: t.run }],
    notes: [
      `${runsNote(t.maxRuns)} Accuracy: the share of answers LongMemEval's judge (src/evaluation/evaluate_qa.py templates, temperature 0) finds correct, × 100; abstention questions count in their type and in Abstention; Task-avg.: the mean of the types' accuracies (print_qa_metrics.py). Retrieval: recall (any answer session retrieved) and NDCG at k = the units the method retrieved, abstention questions and those without user-side evidence (has_answer) excluded, as run_retrieval.py reports it, methods that retrieve dialogue only.`,
      "Bold: the best of this run's methods per column; underlined: the second.",
      sigNote(t.maxRuns, t.refName),
    ],
  };
}
