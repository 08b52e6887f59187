/**
 * Paired significance between the reference method and another, per metric: a two-sided paired t-test
 * over the runs (replicates), as Mem-PAL reports p < 0.01 over 3 runs. With fewer than 2 pairs, or pairs
 * that never differ, there is no test (p = null).
 */
import jStat from "jstat";

export type PairedTest = { n: number; meanDiff: number | null; t: number | null; p: number | null };

export function pairedTTest(a: readonly number[], b: readonly number[]): PairedTest {
  const n = Math.min(a.length, b.length);
  if (n < 2) return { n, meanDiff: n ? a[0] - b[0] : null, t: null, p: null };
  const d = Array.from({ length: n }, (_, i) => a[i] - b[i]);
  const mean = d.reduce((s, x) => s + x, 0) / n;
  const sd = Math.sqrt(d.reduce((s, x) => s + (x - mean) ** 2, 0) / (n - 1));
  if (sd === 0) return { n, meanDiff: mean, t: null, p: mean === 0 ? 1 : null };
  const t = mean / (sd / Math.sqrt(n));
  const p = 2 * (1 - jStat.studentt.cdf(Math.abs(t), n - 1));
  return { n, meanDiff: mean, t, p };
}

export function meanSd(xs: readonly number[]): { mean: number | null; sd: number | null; n: number } {
  const n = xs.length;
  if (!n) return { mean: null, sd: null, n };
  const mean = xs.reduce((s, x) => s + x, 0) / n;
  const sd = n > 1 ? Math.sqrt(xs.reduce((s, x) => s + (x - mean) ** 2, 0) / (n - 1)) : null;
  return { mean, sd, n };
}
