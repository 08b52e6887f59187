/**
 * Seeded percentile bootstrap over items: resample the items with replacement, recompute the
 * statistic, take the 2.5th and 97.5th percentiles (for a 95% interval; linear interpolation between
 * order statistics, as numpy's default percentile).
 */

import { mulberry32 } from "@/lib/random";

/** Percentile q in [0, 1] of sorted values, linear interpolation. */
export function percentile(sorted: readonly number[], q: number): number {
  const pos = (sorted.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo);
}

export interface BootstrapOptions {
  /** Default 1000. */
  iterations?: number;
  /** Default 1. */
  seed?: number;
  /** Default 0.95. */
  level?: number;
}

export interface BootstrapCI {
  /** The statistic on the full data. */
  value: number | null;
  lower: number | null;
  upper: number | null;
  level: number;
  iterations: number;
  /** Resamples on which the statistic was defined. */
  valid: number;
  seed: number;
  reason?: string;
}

/**
 * A null statistic on a resample (e.g. kappa when the resample holds one category) is skipped; when
 * fewer than half the resamples are defined the interval is null, since it would describe a biased subset.
 */
export function bootstrapCI<T>(
  items: readonly T[],
  statistic: (sample: readonly T[]) => number | null,
  opts: BootstrapOptions = {},
): BootstrapCI {
  const iterations = opts.iterations ?? 1000;
  const seed = opts.seed ?? 1;
  const level = opts.level ?? 0.95;
  if (!(level > 0 && level < 1)) throw new RangeError(`level must be in (0, 1), got ${level}`);
  if (!Number.isInteger(iterations) || iterations < 1) throw new RangeError(`iterations must be a positive integer, got ${iterations}`);
  const value = statistic(items);
  const base = { value, level, iterations, seed };
  if (items.length === 0) return { ...base, lower: null, upper: null, valid: 0, reason: "no items" };
  const rand = mulberry32(seed);
  const stats: number[] = [];
  const sample = new Array<T>(items.length);
  for (let b = 0; b < iterations; b++) {
    for (let i = 0; i < items.length; i++) sample[i] = items[Math.floor(rand() * items.length)];
    const s = statistic(sample);
    if (s !== null && Number.isFinite(s)) stats.push(s);
  }
  if (stats.length < iterations / 2) {
    return { ...base, lower: null, upper: null, valid: stats.length, reason: "the statistic is undefined on most resamples" };
  }
  stats.sort((a, b) => a - b);
  const alpha = (1 - level) / 2;
  return { ...base, lower: percentile(stats, alpha), upper: percentile(stats, 1 - alpha), valid: stats.length };
}
