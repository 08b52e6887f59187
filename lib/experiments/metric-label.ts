/**
 * How a metric reads on screen, the same in the results tables, the charts and on an item: the papers'
 * names (B-1, G-Score, S-Score, ROUGE-L, Multi-Info) rather than the stored keys (bleu1, gscore,
 * selection, rougeL, profile), each with a one-line legend. A key of the second HiCUPID judge ends in
 * "@2" (its S_Llama column). Unknown keys read as they are.
 */
const INFO: Record<string, { label: string; legend: string }> = {
  bleu1: { label: "B-1", legend: "BLEU-1 to BLEU-4 against the reference, × 100." },
  bleu2: { label: "B-2", legend: "BLEU-1 to BLEU-4 against the reference, × 100." },
  bleu3: { label: "B-3", legend: "BLEU-1 to BLEU-4 against the reference, × 100." },
  bleu4: { label: "B-4", legend: "BLEU-1 to BLEU-4 against the reference, × 100." },
  gscore: {
    label: "G-Score",
    legend:
      "The judge gives each topic 0, 0.5, 1, 1.5 or 2 points (1 per implicit need restated, 0.5 for a partial match); tables show the mean × 50 (0-100), so an item's 1.5 points read 75.",
  },
  selection: {
    label: "S-Score",
    legend:
      "Of the 2 solutions picked among 8 candidates, +1 per positive, −1 per negative, 0 per neutral (−2..2 per topic); tables show the mean × 50 (−100..100). −16.67 is a mean of −1/3: one negative pick more than positive in every third topic.",
  },
  rougeL: { label: "ROUGE-L", legend: "ROUGE-L F1 against the personalized answer, × 100." },
  bleu: { label: "BLEU", legend: "Smoothed sentence BLEU of each answer against the personalized answer, mean × 100 (HiCUPID's scoring)." },
  bleuCorpus: {
    label: "BLEU (corpus)",
    legend: "Corpus BLEU over all answers, × 100 (a second figure; HiCUPID reports the per-answer mean).",
  },
  persona: {
    label: "Persona",
    legend: "Win rate of the answer over the personalized answer + 0.5 × tie rate, × 100 (50 = as good as it).",
  },
  profile: { label: "Multi-Info", legend: "As Persona, on the multi-info (persona + profile) questions." },
  schedule: { label: "Schedule", legend: "Share of answers the judge finds free of schedule conflicts (YES), × 100." },
  total: { label: "Total", legend: "Persona × 25/40 + Schedule / 2 × 10/40 + Multi-Info × 5/40 (HiCUPID's weights)." },
  hitRate: { label: "Hit rate", legend: "Share of questions whose relevant dialogue was retrieved, HiCUPID's Table A2 weights, × 100." },
  hitPersona: { label: "Hit: Persona", legend: "Share of persona questions whose associated dialogue was retrieved, × 100 (Table A2)." },
  hitSchedule: { label: "Hit: Schedule", legend: "Share of schedule questions whose associated dialogue was retrieved, × 100 (Table A2)." },
  hitMultiPersona: {
    label: "Hit: MI persona",
    legend: "Share of multi-info (MI) questions whose persona dialogue was retrieved, × 100 (Table A2).",
  },
  hitMultiProfile: {
    label: "Hit: MI profile",
    legend: "Share of multi-info (MI) questions with any of their profile dialogues retrieved, × 100 (Table A2).",
  },
  recall: { label: "Recall", legend: "Share of each question's relevant dialogues retrieved, mean." },
  kappa: { label: "κ (judges)", legend: "Cohen's kappa between the two judges' verdicts." },
  unparsed: {
    label: "Unparsed verdicts",
    legend: "Judge replies with no verdict the public scoring script could read; counted as Tie (A/B) or NO (schedule).",
  },
};

/** LoCoMo and LongMemEval keys (lib/tasks/convqa/scores.ts): names with a category, type or retrieval level in them. */
function convqaInfo(key: string): { label: string; legend: string } | null {
  let m = /^(f1|evidenceRecall)(?:\.cat(\d))?$/.exec(key);
  if (m) {
    const what = m[1] === "f1" ? "F1" : "Evidence recall";
    const legend =
      m[1] === "f1"
        ? "LoCoMo's token F1 over stemmed, normalised words (category 1: multi-answer F1; 5: 1 when the answer says the conversation does not mention it), mean (0-1)."
        : "Share of the item's evidence dialogue ids in what the method retrieved (LoCoMo), mean (0-1).";
    return { label: m[2] ? `${what} cat. ${m[2]}` : what, legend };
  }
  if (key === "accuracy.taskAveraged")
    return {
      label: "Task-avg. accuracy",
      legend: "LongMemEval's task-averaged accuracy: the mean of the question types' accuracies (0-1).",
    };
  m = /^accuracy(?:\.(.+))?$/.exec(key);
  if (m)
    return {
      label: m[1] ? `Acc. ${m[1]}` : "Accuracy",
      legend: "Share of answers LongMemEval's judge finds correct (its reply contains yes), (0-1).",
    };
  m = /^retrieval\.(session|turn)(RecallAny|RecallAll|Ndcg)$/.exec(key);
  if (m)
    return {
      label: `${m[1] === "session" ? "Session" : "Turn"} ${m[2] === "Ndcg" ? "NDCG" : m[2] === "RecallAny" ? "recall (any)" : "recall (all)"}`,
      legend:
        "LongMemEval's retrieval scores at k = the units the method retrieved, abstention questions and those without user-side evidence excluded (0-1).",
    };
  return null;
}

export function metricInfo(key: string): { label: string; legend: string | null } {
  const c = convqaInfo(key);
  if (c) return c;
  const [base, judge] = key.split("@");
  const i = INFO[base];
  if (!i) return { label: key, legend: null };
  return judge ? { label: `${i.label} (S_Llama)`, legend: `${i.legend} Second judge.` } : i;
}

export function metricLabel(key: string): string {
  return metricInfo(key).label;
}

/** An item's own value where it is on another scale than the tables' (G-Score and S-Score points), saying so. */
export function itemMetricText(key: string, value: number | null, fmt: (v: number | null) => string): string {
  if (value === null) return fmt(value);
  if (key === "gscore") return `${fmt(value)} of 2 points (${fmt(value * 50)} on the tables' 0-100 scale)`;
  if (key === "selection") return `${fmt(value)} points of −2..2 (${fmt(value * 50)} on the tables' −100..100 scale)`;
  return fmt(value);
}

const ORDER = Object.keys(INFO);

/**
 * Metrics in the papers' order (B-1..B-4, G-Score, S-Score; ROUGE-L, BLEU, Persona, Multi-Info,
 * Schedule, Total…), a second judge's column right after the first's; unknown keys last, A-Z.
 */
export function metricOrder(a: string, b: string): number {
  const rank = (k: string) => {
    const [base, judge] = k.split("@");
    const i = ORDER.indexOf(base);
    return [i < 0 ? ORDER.length : i, judge ? 1 : 0] as const;
  };
  const [x, y] = [rank(a), rank(b)];
  return x[0] - y[0] || x[1] - y[1] || a.localeCompare(b);
}
