/**
 * A bounded in-process cache bounded by the summed weight of its values (entries, floats, characters),
 * so a few big values cannot hold more memory than many small ones. Eviction is CLOCK, an
 * approximation of least-recently-used: a read only marks the entry used (no reordering, so reads
 * on the hot path stay a plain Map lookup); when room is needed, the oldest entry goes unless it was
 * used since it last came round, in which case it moves to the back, unmarked.
 */
export class WeightedLru<K, V> {
  private readonly map = new Map<K, { value: V; weight: number; used: boolean }>();
  private total = 0;

  constructor(
    readonly maxWeight: number,
    private readonly weigh: (value: V, key: K) => number = () => 1,
  ) {}

  get size(): number {
    return this.map.size;
  }

  get(key: K): V | undefined {
    const hit = this.map.get(key);
    if (!hit) return undefined;
    hit.used = true;
    return hit.value;
  }

  /** Stores a value; `weight` when the caller knows it (e.g. the length of the text it was parsed from). */
  set(key: K, value: V, weight = this.weigh(value, key)): void {
    this.delete(key);
    // A value heavier than the whole cache is not kept (it would evict everything for one use).
    if (weight > this.maxWeight) return;
    this.total += weight;
    while (this.total > this.maxWeight) {
      const [k, e] = this.map.entries().next().value!;
      this.map.delete(k);
      if (e.used) {
        e.used = false;
        this.map.set(k, e);
      } else this.total -= e.weight;
    }
    this.map.set(key, { value, weight, used: false });
  }

  delete(key: K): void {
    const old = this.map.get(key);
    if (!old) return;
    this.map.delete(key);
    this.total -= old.weight;
  }

  clear(): void {
    this.map.clear();
    this.total = 0;
  }
}
