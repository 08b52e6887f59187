/**
 * Percent agreement (docs/metrics.md): for each item with two or more ratings, the share of rater pairs that
 * agree; the mean over those items.
 */
import type { Label, Stat } from "./types";

export interface PercentAgreement extends Stat {
  /** Items that had two or more ratings. */
  n: number;
}

export function percentAgreement(items: ReadonlyArray<readonly Label[]>): PercentAgreement {
  let sum = 0;
  let n = 0;
  for (const ratings of items) {
    const m = ratings.length;
    if (m < 2) continue;
    const counts = new Map<string, number>();
    for (const r of ratings) counts.set(String(r), (counts.get(String(r)) ?? 0) + 1);
    let agreeing = 0;
    for (const c of counts.values()) agreeing += (c * (c - 1)) / 2;
    sum += agreeing / ((m * (m - 1)) / 2);
    n++;
  }
  if (n === 0) return { value: null, reason: "no item has two or more ratings", n };
  return { value: sum / n, n };
}
