/**
 * G-Score of Mem-PAL's requirement restatement (docs/metrics.md): the judge gives 0, 0.5, 1, 1.5 or 2 per item
 * (one point per matched implicit need, half for a partial match); the report is the mean × 50 (0..100).
 */

export const GSCORE_VALUES = [0, 0.5, 1, 1.5, 2] as const;

export function isGScoreValue(x: unknown): x is number {
  return typeof x === "number" && (GSCORE_VALUES as readonly number[]).includes(x);
}

export interface GScoreResult {
  /** Mean × 50, in 0..100; null when there is no item. */
  value: number | null;
  n: number;
  reason?: string;
}

/** Mean judge score × 50. Throws on a value outside the judge's scale: that is a parsing bug upstream. */
export function gScore(scores: readonly number[]): GScoreResult {
  for (const [i, s] of scores.entries()) {
    if (!isGScoreValue(s)) throw new RangeError(`G-Score item ${i}: ${s} is not one of ${GSCORE_VALUES.join(", ")}`);
  }
  if (scores.length === 0) return { value: null, n: 0, reason: "no items" };
  let sum = 0;
  for (const s of scores) sum += s; // halves add exactly in binary floating point
  return { value: (sum / scores.length) * 50, n: scores.length };
}
