/**
 * The tables the bootstrap resamples, built once per report (linear in the labels):
 * - items grouped into types by their category counts: an item's share of agreeing pairs, its Fleiss P_i
 *   and its Krippendorff coincidences depend on its counts alone, so a resample is "how many of each type
 *   were drawn" and each statistic is a weighted sum over the few types;
 * - for every rater pair, the cells (category of one, category of the other) of the items both rated:
 *   the pair's bootstrap resamples those items only.
 * Draws use the same seeded sequence as `bootstrapCI` (lib/agreement/bootstrap.ts), one fresh sequence per
 * resampled set, so on complete data the intervals are the ones a resample-everything bootstrap gives.
 */
import { mulberry32 } from "@/lib/random";
import { percentile } from "./bootstrap";
import { kappaOfTable, type KappaWeights } from "./cohen";
import { addUnitCoincidences, alphaOfCoincidences, alphaValues } from "./krippendorff";
import type { Steps } from "./steps";
import { categoryIndex, lookup, type Label } from "./types";

export type Interval = [number, number];

interface ItemType {
  counts: number[];
  /** Ratings on the item. */
  m: number;
  /** Share of agreeing rating pairs (items with m ≥ 2). */
  pa: number;
  /** Fleiss' P_i (items with the complete count). */
  fleissP: number;
  complete: boolean;
  /** Flat K×K coincidences (items with m ≥ 2). */
  coincidences: Float64Array;
}

export interface Prepared {
  K: number;
  raters: string[];
  scale: "nominal" | "ordinal" | "interval";
  values: number[];
  ratingsPerItem: number;
  types: ItemType[];
  typeOf: Int32Array;
  /** rater a × rater b (a < b, key a * raters + b) → flat cells (cat of a) * K + (cat of b). */
  pairCells: Map<number, number[]>;
}

export function prepareItems(
  items: ReadonlyArray<{ ratings: Record<string, Label | null> }>,
  raters: string[],
  categories: readonly Label[],
  scale: Prepared["scale"],
  ratingsPerItem: number,
): Prepared {
  const K = categories.length;
  const idx = categoryIndex(categories);
  const raterIdx = new Map(raters.map((r, i) => [r, i]));
  const R = raters.length;
  const typeIds = new Map<string, number>();
  const types: ItemType[] = [];
  const typeOf = new Int32Array(items.length);
  const pairCells = new Map<number, number[]>();
  const rated: Array<[number, number]> = [];
  items.forEach((it, i) => {
    rated.length = 0;
    const counts = new Array<number>(K).fill(0);
    for (const [rater, label] of Object.entries(it.ratings)) {
      if (label === null || label === undefined) continue;
      const c = lookup(idx, label);
      counts[c]++;
      rated.push([raterIdx.get(rater)!, c]);
    }
    rated.sort((x, y) => x[0] - y[0]);
    for (let x = 0; x < rated.length; x++) {
      for (let y = x + 1; y < rated.length; y++) {
        const key = rated[x][0] * R + rated[y][0];
        let cells = pairCells.get(key);
        if (!cells) pairCells.set(key, (cells = []));
        cells.push(rated[x][1] * K + rated[y][1]);
      }
    }
    const key = counts.join(",");
    let t = typeIds.get(key);
    if (t === undefined) {
      t = types.length;
      typeIds.set(key, t);
      types.push(itemType(counts, K, ratingsPerItem));
    }
    typeOf[i] = t;
  });
  return { K, raters, scale, values: alphaValues(categories, scale), ratingsPerItem, types, typeOf, pairCells };
}

function itemType(counts: number[], K: number, ratingsPerItem: number): ItemType {
  const m = counts.reduce((a, b) => a + b, 0);
  let agreeing = 0;
  let sq = 0;
  for (const c of counts) {
    agreeing += (c * (c - 1)) / 2;
    sq += c * c;
  }
  const coincidences = new Float64Array(K * K);
  if (m >= 2) addUnitCoincidences(coincidences, counts, K);
  return {
    counts,
    m,
    pa: m >= 2 ? agreeing / ((m * (m - 1)) / 2) : 0,
    fleissP: m >= 2 ? (sq - m) / (m * (m - 1)) : 0,
    complete: m >= 2 && m === ratingsPerItem,
    coincidences,
  };
}

export interface ResampleOptions {
  iterations: number;
  seed: number;
  level: number;
}

/** The percentile interval, or null when fewer than half the resamples defined the statistic (see bootstrapCI). */
function interval(stats: number[], o: ResampleOptions): Interval | null {
  if (stats.length === 0 || stats.length < o.iterations / 2) return null;
  stats.sort((a, b) => a - b);
  const alpha = (1 - o.level) / 2;
  return [percentile(stats, alpha), percentile(stats, 1 - alpha)];
}

/** Resamples per `yield`: small enough that a server slice stays a few milliseconds on a large campaign. */
const CHECKPOINT = 16;
/** Elementary steps between two checkpoints of a table bootstrap. */
const WORK_PER_CHECKPOINT = 50_000;

/** Intervals of percent agreement, Fleiss' kappa (complete items) and Krippendorff's alpha over resampled items. */
export function* bootstrapOverall(
  p: Prepared,
  o: ResampleOptions,
): Steps<{ percentAgreement: Interval | null; fleissKappa: Interval | null; krippendorffAlpha: Interval | null }> {
  const N = p.typeOf.length;
  if (N === 0) return { percentAgreement: null, fleissKappa: null, krippendorffAlpha: null };
  const { K, types, typeOf } = p;
  const T = types.length;
  const rand = mulberry32(o.seed);
  const w = new Float64Array(T);
  const o2 = new Float64Array(K * K);
  const cols = new Float64Array(K);
  const pa: number[] = [];
  const fk: number[] = [];
  const ka: number[] = [];
  for (let b = 0; b < o.iterations; b++) {
    w.fill(0);
    for (let i = 0; i < N; i++) w[typeOf[Math.floor(rand() * N)]]++;
    let paNum = 0;
    let paDen = 0;
    let fN = 0;
    let fP = 0;
    cols.fill(0);
    o2.fill(0);
    for (let t = 0; t < T; t++) {
      const wt = w[t];
      if (!wt) continue;
      const ty = types[t];
      if (ty.m < 2) continue;
      paNum += wt * ty.pa;
      paDen += wt;
      for (let x = 0; x < K * K; x++) o2[x] += wt * ty.coincidences[x];
      if (ty.complete) {
        fN += wt;
        fP += wt * ty.fleissP;
        for (let c = 0; c < K; c++) cols[c] += wt * ty.counts[c];
      }
    }
    if (paDen > 0) pa.push(paNum / paDen);
    if (fN > 0) {
      let used = 0;
      let expected = 0;
      for (let c = 0; c < K; c++) {
        if (cols[c] > 0) used++;
        const share = cols[c] / (fN * p.ratingsPerItem);
        expected += share * share;
      }
      // One category only: no chance disagreement, kappa undefined (as fleissKappaCounts says).
      if (used > 1) fk.push((fP / fN - expected) / (1 - expected));
    }
    if (paDen > 0) {
      const a = alphaOfCoincidences(o2, K, p.scale, p.values);
      if (typeof a === "number" && Number.isFinite(a)) ka.push(a);
    }
    if (b % CHECKPOINT === CHECKPOINT - 1) yield;
  }
  return { percentAgreement: interval(pa, o), fleissKappa: interval(fk, o), krippendorffAlpha: interval(ka, o) };
}

/** One rater pair's intervals (one per weighting) over resamples of the items both rated. */
export function* bootstrapPair(
  p: Prepared,
  a: number,
  b: number,
  weights: KappaWeights[],
  o: ResampleOptions,
): Steps<Array<Interval | null>> {
  const cells = p.pairCells.get(a * p.raters.length + b) ?? [];
  return yield* bootstrapCells(
    cells,
    p.K,
    weights.map((w) => (t: Float64Array) => kappaOfTable(t, p.K, w)),
    o,
  );
}

/**
 * Intervals of statistics of a two-rater K×K table over resamples of its items (`cells`: one flat cell
 * index per item). Used for rater pairs and for a judge against the humans' majority.
 */
export function* bootstrapCells(
  cells: readonly number[],
  K: number,
  stats: ReadonlyArray<(t: Float64Array) => number | string>,
  o: ResampleOptions,
): Steps<Array<Interval | null>> {
  const n = cells.length;
  if (!n) return stats.map(() => null);
  // Resamples per checkpoint, by their work (draws, and a K×K table per statistic): about a millisecond's worth.
  const every = Math.max(1, Math.floor(WORK_PER_CHECKPOINT / (n + stats.length * K * K * K)));
  const rand = mulberry32(o.seed);
  const t = new Float64Array(K * K);
  const values = stats.map(() => [] as number[]);
  for (let r = 0; r < o.iterations; r++) {
    t.fill(0);
    for (let i = 0; i < n; i++) t[cells[Math.floor(rand() * n)]]++;
    for (let w = 0; w < stats.length; w++) {
      const v = stats[w](t);
      if (typeof v === "number" && Number.isFinite(v)) values[w].push(v);
    }
    if (r % every === every - 1) yield;
  }
  return values.map((v) => interval(v, o));
}

/**
 * Fleiss' kappa of two raters from their K×K table (each item: two ratings), as `fleissKappa` gives on the
 * same pairs: P_i is 1 when they agree, p_j pools both raters' use of category j.
 */
export function fleissOfPairTable(t: ArrayLike<number>, K: number): number | string {
  let n = 0;
  let agree = 0;
  let expected = 0;
  let used = 0;
  for (let i = 0; i < K; i++) for (let j = 0; j < K; j++) n += t[i * K + j];
  if (n === 0) return "no rated items";
  for (let c = 0; c < K; c++) {
    agree += t[c * K + c];
    let pooled = 0;
    for (let x = 0; x < K; x++) pooled += t[c * K + x] + t[x * K + c];
    if (pooled > 0) used++;
    const share = pooled / (2 * n);
    expected += share * share;
  }
  if (used <= 1) return "every rating is the same category (no chance disagreement)";
  return (agree / n - expected) / (1 - expected);
}
