/** Rows grouped by a key, each group in the rows' order: one pass, where a filter per group would be quadratic. */
export function groupBy<T, K>(rows: readonly T[], key: (r: T) => K): Map<K, T[]> {
  const m = new Map<K, T[]>();
  for (const r of rows) {
    const k = key(r);
    let list = m.get(k);
    if (!list) m.set(k, (list = []));
    list.push(r);
  }
  return m;
}
