/** Shared shapes of the agreement statistics. */

/** A rating: a category label as it appears in the data (compared by its string form). */
export type Label = string | number;

/**
 * A statistic that can be undefined for the data at hand (one category used, one rater, no overlap):
 * then `value` is null and `reason` says why; never NaN, never a throw.
 */
export interface Stat {
  value: number | null;
  reason?: string;
}

export function undefinedStat<T extends object>(reason: string, extra: T): Stat & T {
  return { value: null, reason, ...extra };
}

/** Index of every category by its string form; throws on duplicates (a caller bug). */
export function categoryIndex(categories: readonly Label[]): Map<string, number> {
  const idx = new Map<string, number>();
  categories.forEach((c, i) => {
    const key = String(c);
    if (idx.has(key)) throw new RangeError(`category "${key}" is listed twice`);
    idx.set(key, i);
  });
  return idx;
}

/** The categories in order of first appearance (for nominal data given without a category list). */
export function categoriesOf(labels: Iterable<Label>): Label[] {
  const seen = new Map<string, Label>();
  for (const l of labels) if (!seen.has(String(l))) seen.set(String(l), l);
  return [...seen.values()];
}

export function lookup(idx: Map<string, number>, label: Label): number {
  const i = idx.get(String(label));
  if (i === undefined) throw new RangeError(`label "${String(label)}" is not one of the categories`);
  return i;
}
