/**
 * Cohen's kappa for two raters, unweighted or with linear / quadratic disagreement weights for ordinal
 * scales: κ = 1 − Σ w_ij n_ij / Σ w_ij E_ij, with E_ij = r_i c_j / N the counts expected by chance
 * from the raters' own marginals and w_ij = 1 (i ≠ j), |i − j|/(k − 1) or ((i − j)/(k − 1))².
 * Unweighted, this is (p_o − p_e)/(1 − p_e).
 */
import { categoriesOf, categoryIndex, lookup, type Label, type Stat } from "./types";

export type KappaWeights = "none" | "linear" | "quadratic";

export interface CohenResult extends Stat {
  /** Items rated by both raters. */
  n: number;
  /** Weighted share of disagreement observed (0..1), and expected by chance. */
  observedDisagreement?: number;
  expectedDisagreement?: number;
}

function weight(i: number, j: number, k: number, weights: KappaWeights): number {
  if (i === j) return 0;
  if (weights === "none") return 1;
  const d = Math.abs(i - j) / (k - 1);
  return weights === "linear" ? d : d * d;
}

/** Why a kappa is undefined when one rater (or both) gave one value throughout (docs/metrics.md, "Constant ratings"). */
export const CONSTANT_RATINGS = "undefined (constant ratings)";

/**
 * The kappa of a flat k×k table (t[i * k + j]), or the reason it is undefined. No allocation: the bootstrap
 * calls it once per resample and pair. A rater who gave one value throughout makes p_o = p_e (κ = 0 whatever
 * the other did): that 0 says nothing about agreement, so it is undefined rather than "poor".
 */
export function kappaOfTable(t: ArrayLike<number>, k: number, weights: KappaWeights): number | string {
  let n = 0;
  let rowsUsed = 0;
  let colsUsed = 0;
  let sameCategory = true;
  // The unweighted kappa's sums come with the marginals: one pass over the table.
  let agree = 0;
  let chance = 0;
  for (let i = 0; i < k; i++) {
    let r = 0;
    let c = 0;
    for (let j = 0; j < k; j++) {
      r += t[i * k + j];
      c += t[j * k + i];
    }
    agree += t[i * k + i];
    chance += r * c;
    n += r;
    if (r > 0) rowsUsed++;
    if (c > 0) colsUsed++;
    if (r > 0 !== c > 0) sameCategory = false;
  }
  if (n === 0) return "no item was rated by both raters";
  if (rowsUsed === 1 && colsUsed === 1 && sameCategory)
    return `${CONSTANT_RATINGS}: both raters used one and the same category (no disagreement is expected by chance)`;
  if (rowsUsed === 1 || colsUsed === 1)
    return `${CONSTANT_RATINGS}: the ${rowsUsed === 1 ? (colsUsed === 1 ? "two raters each" : "first rater") : "second rater"} gave one value throughout`;
  if (weights === "none") {
    // The textbook form (p_o − p_e)/(1 − p_e): algebraically the same, and it keeps simple cases exact.
    const po = agree / n;
    const pe = chance / (n * n);
    return (po - pe) / (1 - pe);
  }
  let observed = 0;
  let expected = 0;
  for (let i = 0; i < k; i++) {
    let r = 0;
    for (let j = 0; j < k; j++) r += t[i * k + j];
    for (let j = 0; j < k; j++) {
      const w = weight(i, j, k, weights);
      if (w === 0) continue;
      let c = 0;
      for (let x = 0; x < k; x++) c += t[x * k + j];
      observed += w * t[i * k + j];
      expected += (w * r * c) / n;
    }
  }
  if (expected === 0) return "no disagreement is expected by chance (both raters used one and the same category)";
  return 1 - observed / expected;
}

/** Kappa from a k×k table: table[i][j] = items rater 1 put in category i and rater 2 in category j. */
export function cohenKappaTable(table: readonly (readonly number[])[], weights: KappaWeights = "none"): CohenResult {
  const k = table.length;
  if (table.some((row) => row.length !== k)) throw new RangeError("Cohen's kappa needs a square table");
  const rows = table.map((row) => row.reduce((a, b) => a + b, 0));
  const cols = table[0]?.map((_, j) => table.reduce((a, row) => a + row[j], 0)) ?? [];
  const n = rows.reduce((a, b) => a + b, 0);
  if (n === 0) return { value: null, reason: "no item was rated by both raters", n };
  let observed = 0;
  let expected = 0;
  for (let i = 0; i < k; i++) {
    for (let j = 0; j < k; j++) {
      const w = weight(i, j, k, weights);
      if (w === 0) continue;
      observed += w * table[i][j];
      expected += (w * rows[i] * cols[j]) / n;
    }
  }
  const v = kappaOfTable(table.flat(), k, weights);
  const shares = { observedDisagreement: observed / n, expectedDisagreement: expected / n };
  return typeof v === "string" ? { value: null, reason: v, n, ...shares } : { value: v, n, ...shares };
}

/** The k×k table of paired labels. */
export function confusionTable(pairs: ReadonlyArray<readonly [Label, Label]>, categories: readonly Label[]): number[][] {
  const idx = categoryIndex(categories);
  const t = categories.map(() => new Array<number>(categories.length).fill(0));
  for (const [a, b] of pairs) t[lookup(idx, a)][lookup(idx, b)]++;
  return t;
}

/**
 * Kappa from paired labels. `categories` (ordered, for the weighted forms) defaults to the labels in
 * order of first appearance.
 */
export function cohenKappa(
  pairs: ReadonlyArray<readonly [Label, Label]>,
  opts: { categories?: readonly Label[]; weights?: KappaWeights } = {},
): CohenResult {
  const categories = opts.categories ?? categoriesOf(pairs.flat());
  return cohenKappaTable(confusionTable(pairs, categories), opts.weights ?? "none");
}
