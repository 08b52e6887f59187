/**
 * LoCoMo's QA scores as its public evaluation computes them (snap-research/locomo task_eval/evaluation.py,
 * commit 9228632; docs/metrics.md): answers normalised (commas dropped, lower case, punctuation removed,
 * "a", "an", "the", "and" removed, whitespace collapsed), tokens Porter-stemmed, token F1; category 1's
 * multi-answer F1 (comma-split output and reference, mean over reference parts of the best output part);
 * category 3's reference cut at the first ';'; category 5 (adversarial) 1 when the output says "no
 * information available" or "not mentioned"; evidence recall of the retrieved dialogue ids.
 *
 * Stemming: Porter's algorithm in NLTK's default NLTK_EXTENSIONS mode (porter-nltk.ts), the stemmer the public
 * code calls (nltk PorterStemmer). Until F1 version 2 the `stemmer` package (Porter's own), which differs
 * on words such as "dying", "birthday", "age" (docs/metrics.md).
 */
import { porterNltk } from "./porter-nltk";

/** The F1 recipe's version, stored with every LoCoMo score (2: NLTK-mode stems). */
export const LOCOMO_F1_VERSION = 2;

/** Python's string.punctuation. */
const PUNCT = new Set("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~");
/** regex's \b(a|an|the|and)\b over Unicode word characters. */
const ARTICLES = /(?<![\p{L}\p{N}\p{M}_])(?:a|an|the|and)(?![\p{L}\p{N}\p{M}_])/gu;

export function normalizeLocomoAnswer(s: string): string {
  let t = s.replace(/,/g, "").toLowerCase();
  t = [...t].filter((ch) => !PUNCT.has(ch)).join("");
  t = t.replace(ARTICLES, " ");
  return t.split(/\s+/u).filter(Boolean).join(" ");
}

const stemmedTokens = (s: string) => normalizeLocomoAnswer(s).split(" ").filter(Boolean).map(porterNltk);

/** Token F1 over stemmed, normalised tokens (evaluation.py f1_score). */
export function locomoF1(prediction: string, reference: string): number {
  const p = stemmedTokens(prediction);
  const g = stemmedTokens(reference);
  const counts = new Map<string, number>();
  for (const w of g) counts.set(w, (counts.get(w) ?? 0) + 1);
  let same = 0;
  for (const w of p) {
    const n = counts.get(w) ?? 0;
    if (n > 0) {
      same++;
      counts.set(w, n - 1);
    }
  }
  if (same === 0) return 0;
  const precision = same / p.length;
  const recall = same / g.length;
  return (2 * precision * recall) / (precision + recall);
}

/** Category 1: mean over the reference's comma-separated parts of the best F1 of any output part (evaluation.py f1). */
export function locomoMultiF1(prediction: string, reference: string): number {
  const preds = prediction.split(",").map((x) => x.trim());
  const refs = reference.split(",").map((x) => x.trim());
  return refs.reduce((s, r) => s + Math.max(...preds.map((p) => locomoF1(p, r))), 0) / refs.length;
}

/** One item's score by its category, as eval_question_answering computes it. */
export function locomoQaScore(category: number, output: string, answer: string): number {
  if (category === 5) {
    const o = output.toLowerCase();
    return o.includes("no information available") || o.includes("not mentioned") ? 1 : 0;
  }
  if (category === 1) return locomoMultiF1(output, answer);
  if (category === 2 || category === 3 || category === 4) return locomoF1(output, category === 3 ? answer.split(";")[0].trim() : answer);
  throw new Error(`LoCoMo category ${category}: not one of 1-5`);
}

/**
 * The share of an item's evidence ids found in the retrieved context (evaluation.py, the `_context`
 * recall): session ids ("S3") count an evidence id "D3:5" by its session; dialogue ids count when equal.
 * An item without evidence counts 1, as the public code counts it.
 */
export function locomoEvidenceRecall(evidence: readonly string[], context: readonly string[]): number {
  if (!evidence.length) return 1;
  if (context.length && context[0].startsWith("S")) {
    const sessions = new Set(context.map((c) => c.slice(1)));
    return evidence.filter((ev) => sessions.has(ev.split(":")[0].slice(1))).length / evidence.length;
  }
  const got = new Set(context);
  return evidence.filter((ev) => got.has(ev)).length / evidence.length;
}
