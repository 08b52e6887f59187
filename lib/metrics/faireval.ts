/**
 * FairEval-style pairwise aggregation for Mem-PAL's multi-turn task (docs/metrics.md): each pair (A, B) is
 * judged six times, three with A shown first and three with B first; every judgment scores both
 * dialogues 1–10. Scores are mapped back to their side, averaged per side, and the higher average
 * wins; equal averages (or a difference within the optional margin) are a tie.
 */

export type Order = "AB" | "BA";
export type Outcome = "Win" | "Tie" | "Lose";

/** One judge call: `order` says which side was shown first; scores are in display order. */
export interface PairJudgment {
  order: Order;
  scoreFirst: number;
  scoreSecond: number;
}

export interface FairEvalResult {
  /** Outcome for side A (the method under study). */
  outcome: Outcome;
  meanA: number;
  meanB: number;
  /** meanA − meanB. */
  diff: number;
  n: number;
  /** Count of judgments per order. */
  orders: { AB: number; BA: number };
  /** True when there are exactly 6 judgments, 3 in each order, as the protocol asks. */
  complete: boolean;
}

export interface FairEvalOptions {
  /** A tie when |meanA − meanB| ≤ margin; default 0 (only equal averages tie). */
  margin?: number;
}

/** The side-A outcome for given averages. */
export function pairOutcome(meanA: number, meanB: number, margin = 0): Outcome {
  const diff = meanA - meanB;
  // A small tolerance so that averages such as 7.1 vs 7.0 at margin 0.1 are not split by binary rounding.
  const tol = margin > 0 ? 1e-9 : 0;
  if (Math.abs(diff) <= margin + tol) return "Tie";
  return diff > 0 ? "Win" : "Lose";
}

/** Aggregates the judgments of one pair; null when there are none. */
export function fairEval(judgments: readonly PairJudgment[], opts: FairEvalOptions = {}): FairEvalResult | null {
  if (judgments.length === 0) return null;
  const margin = opts.margin ?? 0;
  if (!(margin >= 0)) throw new RangeError(`tie margin must be >= 0, got ${margin}`);
  let sumA = 0;
  let sumB = 0;
  const orders = { AB: 0, BA: 0 };
  for (const j of judgments) {
    if (j.order !== "AB" && j.order !== "BA") throw new RangeError(`judgment order must be "AB" or "BA", got ${String(j.order)}`);
    if (!Number.isFinite(j.scoreFirst) || !Number.isFinite(j.scoreSecond)) throw new RangeError("judgment scores must be finite numbers");
    orders[j.order]++;
    if (j.order === "AB") {
      sumA += j.scoreFirst;
      sumB += j.scoreSecond;
    } else {
      sumA += j.scoreSecond;
      sumB += j.scoreFirst;
    }
  }
  const n = judgments.length;
  const meanA = sumA / n;
  const meanB = sumB / n;
  // Equal sums decide a tie exactly (integer scores), independent of division rounding.
  const outcome: Outcome = margin === 0 ? (sumA === sumB ? "Tie" : sumA > sumB ? "Win" : "Lose") : pairOutcome(meanA, meanB, margin);
  return { outcome, meanA, meanB, diff: meanA - meanB, n, orders, complete: n === 6 && orders.AB === 3 && orders.BA === 3 };
}

export interface WinTieLose {
  win: number;
  tie: number;
  lose: number;
  n: number;
}

/** Win/Tie/Lose counts over many pairs. */
export function countOutcomes(outcomes: Iterable<Outcome>): WinTieLose {
  const c: WinTieLose = { win: 0, tie: 0, lose: 0, n: 0 };
  for (const o of outcomes) {
    if (o === "Win") c.win++;
    else if (o === "Tie") c.tie++;
    else if (o === "Lose") c.lose++;
    else throw new RangeError(`unknown outcome ${String(o)}`);
    c.n++;
  }
  return c;
}

/** Win/Tie/Lose counts per dimension (e.g. requirement, preference), as Mem-PAL Table 3 reports them. */
export function winTieLoseByDimension(rows: Iterable<{ dimension: string; outcome: Outcome }>): Record<string, WinTieLose> {
  const byDim = new Map<string, Outcome[]>();
  for (const r of rows) {
    const list = byDim.get(r.dimension) ?? [];
    list.push(r.outcome);
    byDim.set(r.dimension, list);
  }
  const out: Record<string, WinTieLose> = {};
  for (const [dim, list] of byDim) out[dim] = countOutcomes(list);
  return out;
}

/** The outcome seen from side B. */
export function flipOutcome(o: Outcome): Outcome {
  return o === "Win" ? "Lose" : o === "Lose" ? "Win" : "Tie";
}
