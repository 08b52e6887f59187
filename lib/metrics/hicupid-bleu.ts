/**
 * HiCUPID's BLEU (docs/metrics.md): the Hugging Face `evaluate` "bleu" metric, i.e. corpus-level BLEU as
 * tensorflow/nmt computes it, over sacrebleu "13a" word tokens, with smoothing on.
 *
 * - matches per order = Σ_items Σ_g min(count_pred(g), max over the item's references count_ref(g));
 *   possible per order = Σ_items max(0, len(pred) − n + 1);
 * - smooth: p_n = (matches + 1) / (possible + 1) for every order (unsmoothed: matches/possible, 0 when
 *   nothing is possible, and a zero p_n makes the score 0);
 * - reference length = Σ_items the SHORTEST reference (not the closest, unlike NLTK);
 *   ratio = c / r; BP = 1 if ratio > 1 else exp(1 − 1/ratio); both lengths must be > 0, else BP = 0;
 * - BLEU = exp(Σ_n (1/N) log p_n) · BP, the sum taken left to right as Python's `sum` does.
 *
 * Items carry their sufficient statistics (`hfBleuStats`) so an experiment can store them per item
 * and aggregate any subset later (`hfBleuFromStats`).
 */

import { crExp, crLog } from "./crmath";

// --- sacrebleu tokenizer_13a -------------------------------------------------------------------

// mteval-v13a's "language-dependent part": symbols { | } ~ [ \ ] ^ _ ` space ! " # $ % & ( ) * + : ; < = > ? @ /
const RE_SYMBOLS = /([{-~[-` -&(-+:-@/])/g;
const RE_PERIOD_COMMA_NOT_AFTER_DIGIT = /([^0-9])([.,])/g;
const RE_PERIOD_COMMA_NOT_BEFORE_DIGIT = /([.,])([^0-9])/g;
const RE_DASH_AFTER_DIGIT = /([0-9])(-)/g;
/** Python `str.split()` separators (its whitespace set, not JavaScript's `\s`). */
const PY_WHITESPACE_RUN = /[\t\n\v\f\r\x1c-\x1f \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+/;

/** sacrebleu's 13a tokenization (as `evaluate` uses it: the tokens, not the re-joined string). */
export function tokenize13a(text: string): string[] {
  let line = text.replaceAll("<skipped>", "").replaceAll("-\n", "").replaceAll("\n", " ");
  if (line.includes("&")) {
    line = line.replaceAll("&quot;", '"').replaceAll("&amp;", "&").replaceAll("&lt;", "<").replaceAll("&gt;", ">");
  }
  line = ` ${line} `;
  line = line.replace(RE_SYMBOLS, " $1 ");
  line = line.replace(RE_PERIOD_COMMA_NOT_AFTER_DIGIT, "$1 $2 ");
  line = line.replace(RE_PERIOD_COMMA_NOT_BEFORE_DIGIT, " $1 $2");
  line = line.replace(RE_DASH_AFTER_DIGIT, "$1 $2 ");
  return line.split(PY_WHITESPACE_RUN).filter((t) => t.length > 0);
}

// --- statistics --------------------------------------------------------------------------------

/** What one prediction contributes to corpus BLEU. */
export interface HfBleuStats {
  matches: number[];
  possible: number[];
  translationLength: number;
  referenceLength: number;
}

export interface HfBleuOptions {
  /** Default 4. */
  maxOrder?: number;
  /** Lin & Och add-one smoothing; HiCUPID's recipe has it on (default true). */
  smooth?: boolean;
  /** Default: 13a. */
  tokenizer?: (text: string) => string[];
}

/** Counts per order (index 0 = unigrams); keys are JSON arrays so tokens holding any separator stay distinct. */
function ngramCounts(tokens: readonly string[], maxOrder: number): Map<string, number>[] {
  const byOrder: Map<string, number>[] = [];
  for (let n = 1; n <= maxOrder; n++) {
    const counts = new Map<string, number>();
    for (let i = 0; i + n <= tokens.length; i++) {
      const key = JSON.stringify(tokens.slice(i, i + n));
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    byOrder.push(counts);
  }
  return byOrder;
}

/** Statistics of one tokenized prediction against its tokenized references. */
export function hfBleuTokenStats(references: readonly (readonly string[])[], prediction: readonly string[], maxOrder = 4): HfBleuStats {
  if (references.length === 0) throw new RangeError("BLEU needs at least one reference per prediction");
  // Counter `|=` over the references: the maximum count of each n-gram in any one reference.
  const merged = ngramCounts([], maxOrder);
  for (const ref of references) {
    ngramCounts(ref, maxOrder).forEach((counts, i) => {
      for (const [k, c] of counts) if (c > (merged[i].get(k) ?? 0)) merged[i].set(k, c);
    });
  }
  const matches = ngramCounts(prediction, maxOrder).map((counts, i) => {
    let m = 0;
    for (const [k, c] of counts) m += Math.min(c, merged[i].get(k) ?? 0);
    return m;
  });
  const possible = matches.map((_, i) => Math.max(0, prediction.length - i));
  return {
    matches,
    possible,
    translationLength: prediction.length,
    referenceLength: Math.min(...references.map((r) => r.length)),
  };
}

/** Statistics of one prediction (string) against one or more reference strings. */
export function hfBleuStats(prediction: string, references: string | readonly string[], opts: HfBleuOptions = {}): HfBleuStats {
  const tok = opts.tokenizer ?? tokenize13a;
  const refs = typeof references === "string" ? [references] : references;
  return hfBleuTokenStats(refs.map(tok), tok(prediction), opts.maxOrder ?? 4);
}

export interface HfBleuResult {
  bleu: number;
  precisions: number[];
  brevityPenalty: number;
  lengthRatio: number;
  translationLength: number;
  referenceLength: number;
}

/** Corpus BLEU from per-item statistics (the `compute_bleu` aggregation). */
export function hfBleuFromStats(items: readonly HfBleuStats[], opts: Pick<HfBleuOptions, "smooth" | "maxOrder"> = {}): HfBleuResult {
  const smooth = opts.smooth ?? true;
  const maxOrder = opts.maxOrder ?? items[0]?.matches.length ?? 4;
  const matches = new Array<number>(maxOrder).fill(0);
  const possible = new Array<number>(maxOrder).fill(0);
  let translationLength = 0;
  let referenceLength = 0;
  for (const s of items) {
    for (let i = 0; i < maxOrder; i++) {
      matches[i] += s.matches[i] ?? 0;
      possible[i] += s.possible[i] ?? 0;
    }
    translationLength += s.translationLength;
    referenceLength += s.referenceLength;
  }
  const precisions = matches.map((m, i) => (smooth ? (m + 1) / (possible[i] + 1) : possible[i] > 0 ? m / possible[i] : 0));
  let geoMean = 0;
  if (Math.min(...precisions) > 0) {
    let logSum = 0;
    for (const p of precisions) logSum += (1 / maxOrder) * crLog(p);
    geoMean = crExp(logSum);
  }
  let ratio = 0;
  let bp = 0;
  if (referenceLength > 0 && translationLength > 0) {
    ratio = translationLength / referenceLength;
    bp = ratio > 1 ? 1 : crExp(1 - 1 / ratio);
  }
  return { bleu: geoMean * bp, precisions, brevityPenalty: bp, lengthRatio: ratio, translationLength, referenceLength };
}

/** `evaluate.load("bleu").compute(predictions, references, smooth=True)` (smooth configurable). In 0..1. */
export function hfBleu(
  predictions: readonly string[],
  references: readonly (string | readonly string[])[],
  opts: HfBleuOptions = {},
): HfBleuResult {
  if (predictions.length !== references.length) throw new RangeError("predictions and references differ in length");
  const stats = predictions.map((p, i) => hfBleuStats(p, references[i], opts));
  return hfBleuFromStats(stats, opts);
}

/** The same recipe on a single item (a corpus of one). In 0..1. */
export function hfBleuItem(prediction: string, references: string | readonly string[], opts: HfBleuOptions = {}): number {
  return hfBleuFromStats([hfBleuStats(prediction, references, opts)], opts).bleu;
}
