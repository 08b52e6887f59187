/**
 * One annotator against the others (docs/metrics.md, "Annotators"): on each item the annotator labelled,
 * the others' majority label (left out when the others are split or absent) is paired with theirs, and
 * Cohen's kappa is taken over those pairs (leave-one-out agreement). Drift is that same agreement on the
 * first half of their items (in the order they submitted them) against the second half, with a 95%
 * bootstrap interval of the change; it is flagged only when both halves are large enough to read
 * (DRIFT_MIN_PER_HALF, docs/annotation.md "Annotators") and the interval lies below zero.
 */
import { mulberry32 } from "@/lib/random";
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

/**
 * Items a half needs before its drift is coloured. A kappa on n pairs has a standard error of roughly
 * 1/√n at moderate agreement, so two halves of 20 give the change a 95% interval of about ±0.6: a fall
 * of 0.2 (the flag) is then visible only when it is large and the interval says so. Below 20 one item
 * moves a half's kappa by 0.1 or more, and "1.00 → 0.40" on 2 and 3 items is noise (issue 34.5).
 */
export const DRIFT_MIN_PER_HALF = 20;
/** A fall at least this large, with the interval below zero, is flagged. */
export const DRIFT_FLAG = 0.2;

export interface Drift {
  first: WithOthers;
  second: WithOthers;
  /** second − first; null when either is undefined. */
  change: number | null;
  /** 95% bootstrap interval of the change (each half resampled on its own); null when it cannot be taken. */
  ci: [number, number] | null;
  /** Both halves have DRIFT_MIN_PER_HALF items, the change falls by DRIFT_FLAG or more and its interval is below zero. */
  flagged: boolean;
}

/** The (own, others' majority) pairs of items with a clear majority among the others. */
function pairsOf(items: readonly RaterItem[]): Array<[Label, Label]> {
  const pairs: Array<[Label, Label]> = [];
  for (const it of items) {
    const m = majorityVote(it.others, { tieRule: "none" });
    if (m.label !== null) pairs.push([it.own, m.label]);
  }
  return pairs;
}

/** `items` in the order the annotator labelled them; the first half is the first ⌊n/2⌋. */
export function drift(items: readonly RaterItem[], categories: readonly Label[], o: { iterations?: number; seed?: number } = {}): Drift {
  const half = Math.floor(items.length / 2);
  const first = agreementWithOthers(items.slice(0, half), categories);
  const second = agreementWithOthers(items.slice(half), categories);
  const change = first.kappa === null || second.kappa === null ? null : second.kappa - first.kappa;
  let ci: [number, number] | null = null;
  if (change !== null) {
    const a = pairsOf(items.slice(0, half));
    const b = pairsOf(items.slice(half));
    const rand = mulberry32(o.seed ?? 1);
    const draw = (xs: Array<[Label, Label]>) => Array.from({ length: xs.length }, () => xs[Math.floor(rand() * xs.length)]);
    const iterations = o.iterations ?? 500;
    const diffs: number[] = [];
    for (let k = 0; k < iterations; k++) {
      const ka = cohenKappa(draw(a), { categories }).value;
      const kb = cohenKappa(draw(b), { categories }).value;
      if (ka !== null && kb !== null) diffs.push(kb - ka);
    }
    // A resample with one category throughout has no kappa; with most of them undefined there is no interval.
    if (diffs.length >= iterations / 2) {
      diffs.sort((x, y) => x - y);
      const at = (q: number) => diffs[Math.min(diffs.length - 1, Math.max(0, Math.floor(q * diffs.length)))];
      ci = [at(0.025), at(0.975)];
    }
  }
  const flagged =
    change !== null && ci !== null && first.n >= DRIFT_MIN_PER_HALF && second.n >= DRIFT_MIN_PER_HALF && change <= -DRIFT_FLAG && ci[1] < 0;
  return { first, second, change, ci, flagged };
}

/** The median of a list (the mean of the two middle values for an even count); null when empty. */
export function median(xs: readonly number[]): number | null {
  if (!xs.length) return null;
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}
