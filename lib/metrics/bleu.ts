/**
 * Sentence BLEU with NLTK 3.8 `sentence_bleu` semantics, and Mem-PAL's BLEU-1..4 recipe on top of
 * it (docs/metrics.md). Pure functions over token arrays; `memPalBleu` adds jieba segmentation.
 *
 * NLTK's algorithm, as reproduced here:
 * - modified precision p_n = Σ_g min(count_hyp(g), max_ref count_ref(g)) / max(1, #hyp n-grams),
 *   kept as an unnormalised fraction (numerator, denominator);
 * - r = the reference length closest to the hypothesis length (ties → the shorter reference);
 *   BP = 1 if c > r, 0 if c = 0, else exp(1 − r/c);
 * - if no unigram matches, the score is exactly 0;
 * - smoothing method1 replaces a zero-numerator p_n by (0 + ε)/denominator (ε = 0.1);
 *   method0 (no smoothing) replaces it by the smallest normal double, as NLTK does;
 * - BLEU = BP · exp(fsum_n w_n · log p_n), over every order that has a weight (weight 0 included:
 *   it contributes 0 · log p_n = 0 because smoothed p_n > 0).
 * Arithmetic follows Python's: precisions are exact integer ratios rounded once, the sum is
 * correctly rounded (math.fsum), and exp/log are correctly rounded (see crmath.ts), so scores match
 * the reference bit for bit rather than to within an ulp.
 */
import { fsum } from "./fsum";
import { segment, type SegmentOptions } from "./segment";
import { CodeCounter, TokenIds } from "./ngram-table";
import { crExp, crLog } from "./crmath";

export type Tokens = readonly string[];
/** BLEU-1..4 in 0..1. */
export type Bleu4 = [number, number, number, number];

/** NLTK's `Fraction(numerator, denominator, _normalize=False)`: counts, never reduced. */
export interface Precision {
  numerator: number;
  denominator: number;
}

export type Smoothing = "method0" | "method1";
export interface BleuOptions {
  /** Default "method1" (Mem-PAL). */
  smoothing?: Smoothing;
  /** method1's epsilon; NLTK's default 0.1. */
  epsilon?: number;
}

/** Mem-PAL's B-1..B-4 weights: B-3 uses 0.33, not 1/3 (docs/metrics.md). */
export const MEMPAL_BLEU_WEIGHTS: readonly (readonly number[])[] = [
  [1, 0, 0, 0],
  [0.5, 0.5, 0, 0],
  [0.33, 0.33, 0.33, 0],
  [0.25, 0.25, 0.25, 0.25],
];

/** Python's sys.float_info.min, NLTK method0's stand-in for a zero precision. */
const FLOAT_MIN = 2.2250738585072014e-308;

// ---------------------------------------------------------------------------------------------
// n-gram counting on small integer ids.
//
// The tokens of one comparison get ids 1..V; an n-gram's code is its ids read as digits in base V+1.
// Digits are never 0, so codes of different orders never collide and one table holds every order.
// When (V+1)^maxOrder would pass 2^53 the codes become strings instead (exact either way).

const tokenIds = new TokenIds();
const counter = new CodeCounter();

function numericCodesFit(base: number, maxOrder: number): boolean {
  return Math.pow(base, maxOrder) <= Number.MAX_SAFE_INTEGER;
}

/** Every n-gram code (orders 1..maxOrder) of `ids`, by start position; numeric or string codes. */
function forEachNgram(
  ids: Int32Array,
  maxOrder: number,
  base: number,
  numeric: boolean,
  fn: (code: number | string, order: number) => boolean | void,
) {
  const len = ids.length;
  for (let i = 0; i < len; i++) {
    let num = 0;
    let str = "";
    const last = Math.min(len, i + maxOrder);
    for (let j = i; j < last; j++) {
      let code: number | string;
      if (numeric) code = num = num * base + ids[j];
      else code = str = str === "" ? String(ids[j]) : `${str},${ids[j]}`;
      if (fn(code, j - i + 1) === false) break;
    }
  }
}

/**
 * Clipped matches per order against a single reference: the reference's n-grams go into a counter,
 * and each hypothesis n-gram takes one occurrence if any is left (Σ min(count_hyp, count_ref)).
 * Monomorphic numeric loops: this is the hot path of `memPalBleu`.
 */
function singleRefMatches(ref: Int32Array, hyp: Int32Array, maxOrder: number, base: number, numerators: number[]): void {
  counter.reset(ref.length * maxOrder);
  const rlen = ref.length;
  for (let i = 0; i < rlen; i++) {
    let code = 0;
    const last = i + maxOrder < rlen ? i + maxOrder : rlen;
    for (let j = i; j < last; j++) {
      code = code * base + ref[j];
      counter.add(code);
    }
  }
  const hlen = hyp.length;
  for (let i = 0; i < hlen; i++) {
    let code = 0;
    const last = i + maxOrder < hlen ? i + maxOrder : hlen;
    for (let j = i; j < last; j++) {
      code = code * base + hyp[j];
      const t = counter.take(code);
      // An n-gram absent from the reference has no longer extension there either.
      if (t < 0) break;
      numerators[j - i] += t;
    }
  }
}

/** The general case (several references, or codes too large for numbers): NLTK's max-count clipping with Maps. */
function mapMatches(refs: Int32Array[], hyp: Int32Array, maxOrder: number, base: number, numeric: boolean, numerators: number[]): void {
  const hypCounts = new Map<number | string, { order: number; count: number }>();
  forEachNgram(hyp, maxOrder, base, numeric, (code, order) => {
    const e = hypCounts.get(code);
    if (e) e.count++;
    else hypCounts.set(code, { order, count: 1 });
  });
  const maxRef = new Map<number | string, number>();
  for (const ref of refs) {
    const refCounts = new Map<number | string, number>();
    forEachNgram(ref, maxOrder, base, numeric, (code) => void refCounts.set(code, (refCounts.get(code) ?? 0) + 1));
    for (const [code, c] of refCounts) if (hypCounts.has(code) && c > (maxRef.get(code) ?? 0)) maxRef.set(code, c);
  }
  for (const [code, { order, count }] of hypCounts) numerators[order - 1] += Math.min(count, maxRef.get(code) ?? 0);
}

export interface NgramStats {
  /** Modified precision for orders 1..maxOrder (index 0 = unigrams). */
  precisions: Precision[];
  hypLen: number;
  closestRefLen: number;
}

/** NLTK's modified precisions for every order up to maxOrder, in one pass over the n-grams. */
export function ngramStats(references: readonly Tokens[], hypothesis: Tokens, maxOrder = 4): NgramStats {
  if (references.length === 0) throw new RangeError("BLEU needs at least one reference");
  tokenIds.begin();
  const hyp = tokenIds.ids(hypothesis);
  const refs = references.map((r) => tokenIds.ids(r));
  const base = tokenIds.size + 1;
  const numeric = numericCodesFit(base, maxOrder);
  const numerators = new Array<number>(maxOrder).fill(0);
  if (refs.length === 1 && numeric) singleRefMatches(refs[0], hyp, maxOrder, base, numerators);
  else mapMatches(refs, hyp, maxOrder, base, numeric, numerators);

  const precisions: Precision[] = numerators.map((numerator, i) => ({
    numerator,
    denominator: Math.max(1, hyp.length - i),
  }));
  return { precisions, hypLen: hyp.length, closestRefLen: closestRefLength(references, hyp.length) };
}

/** NLTK `modified_precision(references, hypothesis, n)`. */
export function modifiedPrecision(references: readonly Tokens[], hypothesis: Tokens, n: number): Precision {
  return ngramStats(references, hypothesis, n).precisions[n - 1];
}

/** NLTK `closest_ref_length`: the reference length nearest the hypothesis length, ties to the shorter. */
export function closestRefLength(references: readonly Tokens[], hypLen: number): number {
  let best = -1;
  for (const ref of references) {
    const len = ref.length;
    if (best < 0) best = len;
    else {
      const d = Math.abs(len - hypLen);
      const bd = Math.abs(best - hypLen);
      if (d < bd || (d === bd && len < best)) best = len;
    }
  }
  return best;
}

/** NLTK `brevity_penalty(closest_ref_len, hyp_len)`. */
export function brevityPenalty(closestRefLen: number, hypLen: number): number {
  if (hypLen > closestRefLen) return 1;
  if (hypLen === 0) return 0;
  return crExp(1 - closestRefLen / hypLen);
}

/** The smoothed precisions as numbers (NLTK's SmoothingFunction.method0 / method1). */
export function smoothPrecisions(precisions: readonly Precision[], opts: BleuOptions = {}): number[] {
  const smoothing = opts.smoothing ?? "method1";
  const epsilon = opts.epsilon ?? 0.1;
  return precisions.map(({ numerator, denominator }) => {
    if (numerator !== 0) return numerator / denominator;
    return smoothing === "method1" ? (numerator + epsilon) / denominator : FLOAT_MIN;
  });
}

/** BLEU from precomputed statistics, for several weight vectors at once (NLTK 3.8 accepts a list of weights). */
export function bleuFromStats(stats: NgramStats, weightsList: readonly (readonly number[])[], opts: BleuOptions = {}): number[] {
  if (stats.precisions[0].numerator === 0) return weightsList.map(() => 0);
  const bp = brevityPenalty(stats.closestRefLen, stats.hypLen);
  const p = smoothPrecisions(stats.precisions, opts);
  const logs = p.map(cachedLog);
  return weightsList.map((weights) => {
    const terms = new Array<number>(weights.length);
    for (let i = 0; i < weights.length; i++) terms[i] = weights[i] * logs[i];
    return bp * crExp(fsum(terms));
  });
}

// Precisions are small fractions that recur constantly; their logs are worth remembering.
const logCache = new Map<number, number>();
function cachedLog(x: number): number {
  let v = logCache.get(x);
  if (v === undefined) {
    if (logCache.size > 100_000) logCache.clear();
    v = crLog(x);
    logCache.set(x, v);
  }
  return v;
}

function maxLength(weightsList: readonly (readonly number[])[]): number {
  let m = 0;
  for (const w of weightsList) m = Math.max(m, w.length);
  return m;
}

/** NLTK `sentence_bleu(references, hypothesis, weights, smoothing_function)`; default method1 smoothing. */
export function sentenceBleu(
  references: readonly Tokens[],
  hypothesis: Tokens,
  weights: readonly number[] = [0.25, 0.25, 0.25, 0.25],
  opts: BleuOptions = {},
): number {
  return bleuFromStats(ngramStats(references, hypothesis, weights.length), [weights], opts)[0];
}

/** `sentenceBleu` for several weight vectors sharing one n-gram count (NLTK 3.8's list-of-weights form). */
export function sentenceBleuMulti(
  references: readonly Tokens[],
  hypothesis: Tokens,
  weightsList: readonly (readonly number[])[],
  opts: BleuOptions = {},
): number[] {
  return bleuFromStats(ngramStats(references, hypothesis, maxLength(weightsList)), weightsList, opts);
}

/** Mem-PAL B-1..B-4 (method1) of one candidate against one reference, both already segmented. */
export function bleu4Tokens(reference: Tokens, candidate: Tokens): Bleu4 {
  return bleuFromStats(ngramStats([reference], candidate, 4), MEMPAL_BLEU_WEIGHTS) as Bleu4;
}

/**
 * Mem-PAL B-1..B-4 with several references: each reference is scored alone and, per order, the
 * maximum is kept (the paper's "maximum score computed with the two references").
 */
export function memPalBleuTokens(references: readonly Tokens[], candidate: Tokens): Bleu4 {
  if (references.length === 0) throw new RangeError("BLEU needs at least one reference");
  const best: Bleu4 = [0, 0, 0, 0];
  for (const ref of references) {
    const b = bleu4Tokens(ref, candidate);
    for (let i = 0; i < 4; i++) if (b[i] > best[i]) best[i] = b[i];
  }
  return best;
}

/**
 * The full Mem-PAL recipe on raw text: jieba segmentation (whitespace tokens kept, as metrics.py; `whitespace:
 * "drop"` is the labelled alternative), then `memPalBleuTokens`. In 0..1.
 */
export function memPalBleu(references: string | readonly string[], candidate: string, opts: SegmentOptions = {}): Bleu4 {
  const refs = typeof references === "string" ? [references] : references;
  return memPalBleuTokens(
    refs.map((r) => segment(r, opts)),
    segment(candidate, opts),
  );
}

/** Scores ×100, as the papers report them. */
export function bleuPercent(b: readonly number[]): number[] {
  return b.map((x) => x * 100);
}

/** Mean BLEU-1..4 over items (0..1); null for no items. */
export function meanBleu(rows: readonly Bleu4[]): Bleu4 | null {
  if (rows.length === 0) return null;
  const sums = [0, 1, 2, 3].map((i) => fsum(rows.map((r) => r[i])));
  return sums.map((s) => s / rows.length) as Bleu4;
}
