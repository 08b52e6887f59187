/**
 * Krippendorff's alpha (Krippendorff, "Computing Krippendorff's Alpha-Reliability", 2011), any number
 * of raters, missing ratings allowed. Units with fewer than two ratings are not pairable and drop out.
 *
 * Coincidences: o_ck = Σ_u (number of c–k pairs of ratings by different raters in unit u) / (m_u − 1);
 * n_c = Σ_k o_ck, n = Σ_c n_c. α = 1 − (n − 1) · Σ o_ck δ²_ck / Σ n_c n_k δ²_ck, with the metric
 *   nominal  δ² = [c ≠ k]
 *   ordinal  δ² = (Σ_{g between c and k} n_g − (n_c + n_k)/2)²   (categories in their given order)
 *   interval δ² = (v_c − v_k)²
 *   ratio    δ² = ((v_c − v_k)/(v_c + v_k))²
 */
import { categoriesOf, categoryIndex, lookup, type Label, type Stat } from "./types";

export type AlphaScale = "nominal" | "ordinal" | "interval" | "ratio";

export interface AlphaResult extends Stat {
  /** Pairable ratings (in units with two or more ratings). */
  pairable: number;
  /** Units with two or more ratings. */
  units: number;
}

export interface AlphaOptions {
  scale?: AlphaScale;
  /**
   * The categories; their order is the ordinal order. Defaults: numbers in ascending order when all
   * labels are numeric, else the labels in order of first appearance (fine for nominal data).
   */
  categories?: readonly Label[];
}

function numericValue(label: Label): number | undefined {
  if (typeof label === "number") return Number.isFinite(label) ? label : undefined;
  if (label.trim() === "") return undefined;
  const v = Number(label);
  return Number.isFinite(v) ? v : undefined;
}

/** Default category order: ascending numbers when every label is numeric, else first appearance. */
export function defaultCategories(labels: readonly Label[]): Label[] {
  const cats = categoriesOf(labels);
  if (cats.length > 0 && cats.every((c) => numericValue(c) !== undefined)) {
    return [...cats].sort((a, b) => numericValue(a)! - numericValue(b)!);
  }
  return cats;
}

/**
 * @param units one array per unit (item), holding each rater's label or null/undefined when missing;
 *   the position of a rater within a unit does not matter.
 */
export function krippendorffAlpha(units: ReadonlyArray<ReadonlyArray<Label | null | undefined>>, opts: AlphaOptions = {}): AlphaResult {
  const scale = opts.scale ?? "nominal";
  const present = units.map((u) => u.filter((x): x is Label => x !== null && x !== undefined));
  const categories = opts.categories ?? defaultCategories(present.flat());
  const idx = categoryIndex(categories);
  const K = categories.length;

  const values = alphaValues(categories, scale);

  const o = Array.from({ length: K }, () => new Array<number>(K).fill(0));
  let unitsUsed = 0;
  for (const ratings of present) {
    const m = ratings.length;
    if (m < 2) continue;
    unitsUsed++;
    const counts = new Map<number, number>();
    for (const r of ratings) {
      const c = lookup(idx, r);
      counts.set(c, (counts.get(c) ?? 0) + 1);
    }
    for (const [c, nc] of counts) {
      for (const [k, nk] of counts) o[c][k] += (nc * (c === k ? nk - 1 : nk)) / (m - 1);
    }
  }
  const nc = o.map((row) => row.reduce((a, b) => a + b, 0));
  const n = nc.reduce((a, b) => a + b, 0);
  // n is a sum of fractions that add up to the integer count of pairable ratings.
  const pairable = Math.round(n);
  if (unitsUsed === 0) return { value: null, reason: "no unit has two or more ratings", pairable, units: 0 };
  const v = alphaOfCoincidences(o.flat(), K, scale, values);
  return typeof v === "string" ? { value: null, reason: v, pairable, units: unitsUsed } : { value: v, pairable, units: unitsUsed };
}

/** The metric values of the categories for interval/ratio alpha: the label's number, or its rank when not numeric. */
export function alphaValues(categories: readonly Label[], scale: AlphaScale): number[] {
  if (scale === "ratio" && categories.some((c) => numericValue(c) === undefined)) throw new RangeError("ratio alpha needs numeric labels");
  return categories.map((c, i) => numericValue(c) ?? i);
}

/**
 * Alpha from a flat K×K coincidence matrix (o[c * K + k]), or why it is undefined. The bootstrap sums the
 * units' precomputed matrices and calls this once per resample.
 */
export function alphaOfCoincidences(o: ArrayLike<number>, K: number, scale: AlphaScale, values: readonly number[]): number | string {
  const nc = new Array<number>(K).fill(0);
  let n = 0;
  for (let c = 0; c < K; c++) {
    for (let k = 0; k < K; k++) nc[c] += o[c * K + k];
    n += nc[c];
  }
  if (n === 0) return "no unit has two or more ratings";
  const delta2 = (c: number, k: number): number => {
    if (c === k) return 0;
    switch (scale) {
      case "nominal":
        return 1;
      case "ordinal": {
        const lo = Math.min(c, k);
        const hi = Math.max(c, k);
        let s = 0;
        for (let g = lo; g <= hi; g++) s += nc[g];
        const d = s - (nc[c] + nc[k]) / 2;
        return d * d;
      }
      case "interval": {
        const d = values[c] - values[k];
        return d * d;
      }
      case "ratio": {
        const sum = values[c] + values[k];
        if (sum === 0) return 0;
        const d = (values[c] - values[k]) / sum;
        return d * d;
      }
    }
  };
  let observed = 0;
  let expected = 0;
  for (let c = 0; c < K; c++) {
    for (let k = 0; k < K; k++) {
      if (c === k) continue;
      const d = delta2(c, k);
      observed += o[c * K + k] * d;
      expected += nc[c] * nc[k] * d;
    }
  }
  if (expected === 0) return "no variation: every pairable rating has the same value";
  return 1 - ((n - 1) * observed) / expected;
}

/** One unit's coincidences (added into `into`, flat K×K) from its category counts; m = Σ counts ≥ 2. */
export function addUnitCoincidences(into: number[] | Float64Array, counts: ArrayLike<number>, K: number, weight = 1): void {
  let m = 0;
  for (let c = 0; c < K; c++) m += counts[c];
  for (let c = 0; c < K; c++) {
    if (!counts[c]) continue;
    for (let k = 0; k < K; k++) if (counts[k]) into[c * K + k] += (weight * (counts[c] * (c === k ? counts[k] - 1 : counts[k]))) / (m - 1);
  }
}
