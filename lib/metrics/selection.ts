/**
 * Selection score of Mem-PAL's solution selection (docs/metrics.md): of the 8 candidate solutions (2 pos,
 * 2 neg, 4 neutral) the assistant selects exactly two; +1 per positive, −1 per negative, 0 per neutral,
 * so an item scores −2..2; the report is the mean × 50 (−100..100).
 */

export type Feedback = "pos" | "neg" | "neu";
const POINTS: Record<Feedback, number> = { pos: 1, neg: -1, neu: 0 };

export interface SelectionItemScore {
  /** −2..2, or null when the selection is invalid. */
  score: number | null;
  reason?: string;
}

/**
 * One item. `candidates` maps each candidate id to its feedback label. Invalid selections (not exactly
 * two ids, a repeated id, an unknown id) score null with the reason; the experiments part regenerates them.
 */
export function selectionItemScore(
  selected: ReadonlyArray<string | number>,
  candidates: Readonly<Record<string, Feedback>>,
): SelectionItemScore {
  if (selected.length !== 2) return { score: null, reason: `expected exactly 2 selected ids, got ${selected.length}` };
  const ids = selected.map(String);
  if (ids[0] === ids[1]) return { score: null, reason: `id ${ids[0]} selected twice` };
  let score = 0;
  for (const id of ids) {
    const fb = Object.prototype.hasOwnProperty.call(candidates, id) ? candidates[id] : undefined;
    if (fb === undefined) return { score: null, reason: `unknown candidate id ${id}` };
    if (!(fb in POINTS)) return { score: null, reason: `candidate ${id} has unknown feedback "${fb}"` };
    score += POINTS[fb];
  }
  return { score };
}

export interface SelectionScoreResult {
  /** Mean × 50 over the counted items, −100..100; null when nothing counts. */
  value: number | null;
  n: number;
  invalid: number;
  reason?: string;
}

/**
 * Mean item score × 50. Invalid items (score null) count as 0 by default (`invalid: "zero"`, they stay in
 * the denominator) or are left out (`invalid: "exclude"`).
 */
export function selectionScore(items: ReadonlyArray<number | null>, opts: { invalid?: "zero" | "exclude" } = {}): SelectionScoreResult {
  const mode = opts.invalid ?? "zero";
  let sum = 0;
  let n = 0;
  let invalid = 0;
  for (const s of items) {
    if (s === null) {
      invalid++;
      if (mode === "zero") n++;
      continue;
    }
    if (!Number.isInteger(s) || s < -2 || s > 2) throw new RangeError(`selection item score ${s} is outside -2..2`);
    sum += s;
    n++;
  }
  if (n === 0) return { value: null, n, invalid, reason: "no items to score" };
  return { value: (sum / n) * 50, n, invalid };
}
