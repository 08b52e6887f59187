/**
 * Balanced assignment: each item goes to k distinct annotators, always those with the fewest items
 * so far (ties broken by a seeded draw), so loads differ by at most one and nobody gets an item twice.
 * The shown order of pairwise items is drawn per item and annotator, and recorded.
 */
import { mulberry32 } from "@/lib/random";
import { InvalidInputError } from "@/lib/errors";

export interface PlannedAssignment {
  item: number;
  annotator: number;
  swapped: boolean;
}

export function planAssignments(itemCount: number, annotators: readonly number[], k: number, seed: number): PlannedAssignment[] {
  const unique = [...new Set(annotators)];
  if (unique.length !== annotators.length) throw new InvalidInputError("annotators: an annotator is listed twice");
  if (!Number.isInteger(k) || k < 1) throw new InvalidInputError(`perItem: expected a positive integer, got ${k}`);
  if (k > unique.length)
    throw new InvalidInputError(`perItem: ${k} annotations per item need at least ${k} annotators, got ${unique.length}`);
  const rand = mulberry32(seed);
  const load = new Map(unique.map((a) => [a, 0]));
  const out: PlannedAssignment[] = [];
  for (let item = 0; item < itemCount; item++) {
    const order = unique.map((a) => ({ a, load: load.get(a)!, r: rand() })).sort((x, y) => x.load - y.load || x.r - y.r);
    for (const { a } of order.slice(0, k)) {
      load.set(a, load.get(a)! + 1);
      out.push({ item, annotator: a, swapped: rand() < 0.5 });
    }
  }
  return out;
}
