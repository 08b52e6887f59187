/**
 * One annotator against the others (docs/metrics.md, "Annotators"): on each item the annotator labelled,
 * the others' majority label (left out when the others are split or absent) is paired with theirs, and
 * Cohen's kappa is taken over those pairs (leave-one-out agreement). Drift is that same agreement on the
 * first half of their items (in the order they submitted them) against the second half.
 */
import { cohenKappa } from "./cohen";
import { majorityVote } from "./majority";
import type { Label } from "./types";

export interface RaterItem {
  own: Label;
  /** The other annotators' labels on the same item. */
  others: readonly Label[];
}

export interface WithOthers {
  kappa: number | null;
  reason?: string;
  /** Items with a clear majority among the others. */
  n: number;
  /** Share of those items where the annotator matches the others' majority. */
  percentAgreement: number | null;
}

export function agreementWithOthers(items: readonly RaterItem[], categories: readonly Label[]): WithOthers {
  const pairs: Array<[Label, Label]> = [];
  for (const it of items) {
    const m = majorityVote(it.others, { tieRule: "none" });
    if (m.label !== null) pairs.push([it.own, m.label]);
  }
  if (!pairs.length) return { kappa: null, reason: "no item with a clear majority among the others", n: 0, percentAgreement: null };
  const k = cohenKappa(pairs, { categories });
  const agree = pairs.filter(([a, b]) => String(a) === String(b)).length;
  return { kappa: k.value, ...(k.reason ? { reason: k.reason } : {}), n: pairs.length, percentAgreement: agree / pairs.length };
}

export interface Drift {
  first: WithOthers;
  second: WithOthers;
  /** second − first; null when either is undefined. */
  change: number | null;
}

/** `items` in the order the annotator labelled them; the first half is the first ⌊n/2⌋. */
export function drift(items: readonly RaterItem[], categories: readonly Label[]): Drift {
  const half = Math.floor(items.length / 2);
  const first = agreementWithOthers(items.slice(0, half), categories);
  const second = agreementWithOthers(items.slice(half), categories);
  return { first, second, change: first.kappa === null || second.kappa === null ? null : second.kappa - first.kappa };
}

/** The median of a list (the mean of the two middle values for an even count); null when empty. */
export function median(xs: readonly number[]): number | null {
  if (!xs.length) return null;
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}
