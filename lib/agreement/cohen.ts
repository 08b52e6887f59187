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
  const observedDisagreement = observed / n;
  const expectedDisagreement = expected / n;
  if (expected === 0) {
    return {
      value: null,
      reason: "no disagreement is expected by chance (both raters used one and the same category)",
      n,
      observedDisagreement,
      expectedDisagreement,
    };
  }
  if (weights === "none") {
    // The textbook form (p_o − p_e)/(1 − p_e): algebraically the same, and it keeps simple cases exact.
    let agree = 0;
    let chance = 0;
    for (let i = 0; i < k; i++) {
      agree += table[i][i];
      chance += rows[i] * cols[i];
    }
    const po = agree / n;
    const pe = chance / (n * n);
    return { value: (po - pe) / (1 - pe), n, observedDisagreement, expectedDisagreement };
  }
  return { value: 1 - observed / expected, n, observedDisagreement, expectedDisagreement };
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
