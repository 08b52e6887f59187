/**
 * How a metric key reads on screen, the same in the results table and on an item: the papers' names
 * (BLEU-1, G-Score, ROUGE-L) rather than the stored keys (bleu1, gscore, rougeL). Unknown keys as they are.
 */
const LABELS: Record<string, string> = {
  bleu1: "BLEU-1",
  bleu2: "BLEU-2",
  bleu3: "BLEU-3",
  bleu4: "BLEU-4",
  gscore: "G-Score",
  rougeL: "ROUGE-L",
  selection: "Selection",
  unparsed: "Unparsed verdicts",
};

export function metricLabel(key: string): string {
  return LABELS[key] ?? key;
}
