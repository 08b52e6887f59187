/**
 * Fleiss' kappa (Fleiss 1971) for N items each rated by the same number m ≥ 2 of raters:
 * P_i = (Σ_j n_ij² − m) / (m(m − 1)), P̄ = mean P_i, p_j = Σ_i n_ij / (N m), P̄_e = Σ_j p_j²,
 * κ = (P̄ − P̄_e) / (1 − P̄_e).
 */
import { categoriesOf, categoryIndex, lookup, type Label, type Stat } from "./types";

export interface FleissResult extends Stat {
  /** Items. */
  n: number;
  /** Ratings per item. */
  raters: number;
  observed?: number;
  expected?: number;
}

/** From an items × categories table of counts. */
export function fleissKappaCounts(counts: readonly (readonly number[])[]): FleissResult {
  const N = counts.length;
  if (N === 0) return { value: null, reason: "no rated items", n: 0, raters: 0 };
  const m = counts[0].reduce((a, b) => a + b, 0);
  if (counts.some((row) => row.reduce((a, b) => a + b, 0) !== m)) {
    return { value: null, reason: "items have different numbers of ratings", n: N, raters: m };
  }
  if (m < 2) return { value: null, reason: "fewer than two ratings per item", n: N, raters: m };
  const k = counts[0].length;
  let sumP = 0;
  const colSums = new Array<number>(k).fill(0);
  for (const row of counts) {
    let sq = 0;
    for (let j = 0; j < k; j++) {
      sq += row[j] * row[j];
      colSums[j] += row[j];
    }
    sumP += (sq - m) / (m * (m - 1));
  }
  const observed = sumP / N;
  let expected = 0;
  for (const c of colSums) {
    const p = c / (N * m);
    expected += p * p;
  }
  if (expected === 1) {
    return { value: null, reason: "every rating is the same category (no chance disagreement)", n: N, raters: m, observed, expected };
  }
  return { value: (observed - expected) / (1 - expected), n: N, raters: m, observed, expected };
}

/** From each item's list of ratings (missing ratings left out). */
export function fleissKappa(items: ReadonlyArray<readonly Label[]>, categories?: readonly Label[]): FleissResult {
  const cats = categories ?? categoriesOf(items.flat());
  const idx = categoryIndex(cats);
  return fleissKappaCounts(
    items.map((ratings) => {
      const row = new Array<number>(cats.length).fill(0);
      for (const r of ratings) row[lookup(idx, r)]++;
      return row;
    }),
  );
}
