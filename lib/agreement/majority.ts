/**
 * Majority vote over one item's ratings with an explicit, recorded rule for ties between the most
 * frequent labels (docs/metrics.md): e.g. two raters who disagree.
 *
 * Tie rules:
 * - "tie":        the item's label becomes `tieLabel` (Mem-PAL pairwise judging: W vs L → Tie);
 * - "first":      the tied label listed first in `order` (a fixed, documented preference);
 * - "adjudicate": the `adjudicated` label when one is given, else no label and `needsAdjudication`;
 * - "none":       no label (the item is left out).
 */
import type { Label } from "./types";

export type TieRule = "tie" | "first" | "adjudicate" | "none";

export interface MajorityOptions {
  tieRule?: TieRule;
  /** Label used by the "tie" rule; default "Tie". */
  tieLabel?: Label;
  /** Preference order for the "first" rule; default the order the labels first appear in. */
  order?: readonly Label[];
  /** The adjudicator's label for this item (the "adjudicate" rule). */
  adjudicated?: Label | null;
}

export interface MajorityResult {
  /** The aggregated label; null when there are no ratings or the tie is left unresolved. */
  label: Label | null;
  /** The rule that was applied ("majority" when there was no tie). */
  rule: "majority" | TieRule;
  tied: boolean;
  /** Labels sharing the top count (one when there is a majority). */
  candidates: Label[];
  counts: Record<string, number>;
  needsAdjudication?: boolean;
}

export function majorityVote(ratings: ReadonlyArray<Label | null | undefined>, opts: MajorityOptions = {}): MajorityResult {
  const tieRule = opts.tieRule ?? "tie";
  const counts = new Map<string, { label: Label; count: number }>();
  for (const r of ratings) {
    if (r === null || r === undefined) continue;
    const e = counts.get(String(r));
    if (e) e.count++;
    else counts.set(String(r), { label: r, count: 1 });
  }
  const countRecord = Object.fromEntries([...counts].map(([k, v]) => [k, v.count]));
  if (counts.size === 0) return { label: null, rule: "majority", tied: false, candidates: [], counts: countRecord };
  const top = Math.max(...[...counts.values()].map((e) => e.count));
  const candidates = [...counts.values()].filter((e) => e.count === top).map((e) => e.label);
  if (candidates.length === 1) return { label: candidates[0], rule: "majority", tied: false, candidates, counts: countRecord };

  const base = { rule: tieRule, tied: true, candidates, counts: countRecord };
  switch (tieRule) {
    case "tie":
      return { ...base, label: opts.tieLabel ?? "Tie" };
    case "first": {
      const order = (opts.order ?? candidates).map(String);
      const ranked = [...candidates].sort((a, b) => rank(order, a) - rank(order, b));
      return { ...base, label: ranked[0] };
    }
    case "adjudicate":
      return opts.adjudicated === null || opts.adjudicated === undefined
        ? { ...base, label: null, needsAdjudication: true }
        : { ...base, label: opts.adjudicated };
    case "none":
      return { ...base, label: null };
  }
}

function rank(order: string[], label: Label): number {
  const i = order.indexOf(String(label));
  return i < 0 ? Number.MAX_SAFE_INTEGER : i;
}
