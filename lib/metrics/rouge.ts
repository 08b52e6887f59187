/**
 * ROUGE-L as Google's `rouge_score` package computes it (the scorer behind Hugging Face `evaluate`
 * "rouge"), used by HiCUPID beside BLEU.
 *
 * Tokenizer (no stemmer): lowercase, every run of characters outside [a-z0-9] becomes a space, split,
 * keep only [a-z0-9]+ tokens. Score: LCS length l; P = l/|prediction|, R = l/|target|,
 * F = 2PR/(P+R) (0 when P+R = 0); all three 0 when either side has no tokens.
 * Several references: the one with the highest F-measure counts (rouge_score's `score_multi`).
 */

export interface RougeScore {
  precision: number;
  recall: number;
  fmeasure: number;
}

const NON_ALPHANUM = /[^a-z0-9]+/g;
const VALID_TOKEN = /^[a-z0-9]+$/;

/** rouge_score's default tokenizer without stemming. */
export function rougeTokenize(text: string): string[] {
  return text
    .toLowerCase()
    .replace(NON_ALPHANUM, " ")
    .split(/\s+/)
    .filter((t) => VALID_TOKEN.test(t));
}

/** Length of the longest common subsequence (two-row dynamic programme). */
export function lcsLength(a: readonly string[], b: readonly string[]): number {
  if (a.length === 0 || b.length === 0) return 0;
  let prev = new Int32Array(b.length + 1);
  let cur = new Int32Array(b.length + 1);
  for (let i = 1; i <= a.length; i++) {
    const ai = a[i - 1];
    for (let j = 1; j <= b.length; j++) {
      cur[j] = ai === b[j - 1] ? prev[j - 1] + 1 : Math.max(prev[j], cur[j - 1]);
    }
    [prev, cur] = [cur, prev];
  }
  return prev[b.length];
}

/** rouge_score's `fmeasure(precision, recall)`. */
export function fmeasure(precision: number, recall: number): number {
  return precision + recall > 0 ? (2 * precision * recall) / (precision + recall) : 0;
}

/** ROUGE-L of tokenized text. */
export function rougeLTokens(target: readonly string[], prediction: readonly string[]): RougeScore {
  if (target.length === 0 || prediction.length === 0) return { precision: 0, recall: 0, fmeasure: 0 };
  const lcs = lcsLength(target, prediction);
  const precision = lcs / prediction.length;
  const recall = lcs / target.length;
  return { precision, recall, fmeasure: fmeasure(precision, recall) };
}

/** ROUGE-L of a prediction against one reference, or the best of several (by F-measure). */
export function rougeL(references: string | readonly string[], prediction: string): RougeScore {
  const refs = typeof references === "string" ? [references] : references;
  if (refs.length === 0) throw new RangeError("ROUGE-L needs at least one reference");
  const pred = rougeTokenize(prediction);
  let best: RougeScore | undefined;
  for (const r of refs) {
    const s = rougeLTokens(rougeTokenize(r), pred);
    if (!best || s.fmeasure > best.fmeasure) best = s;
  }
  return best!;
}

/**
 * Mean ROUGE-L F-measure over items, in 0..1 (null for none). `evaluate` reports the middle of a
 * bootstrap over these per-item values by default; the plain mean is what that estimate targets.
 */
export function meanRougeL(items: ReadonlyArray<{ references: string | readonly string[]; prediction: string }>): number | null {
  if (items.length === 0) return null;
  let sum = 0;
  for (const it of items) sum += rougeL(it.references, it.prediction).fmeasure;
  return sum / items.length;
}
