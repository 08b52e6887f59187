/**
 * Win/Tie/Lose per run (Mem-PAL Table 3 counts one run: 478 + 29 + 319 = 826, the query topics). With n
 * repeats a pair's counts are the mean over the runs with their sd, so W + T + L stays the topics of one
 * run; each run's own counts are kept. Pure: fed with per-run counts, wherever they were summed.
 */
import jStat from "jstat";
import { meanSd } from "../significance";

/** One run's counts of a pair (a: the reference, b: the other method) on one dimension. */
export type PairRunCounts = { a: string; b: string; dimension: string; replicate: number; win: number; tie: number; lose: number };

export type PairRunRow = {
  replicate: number;
  win: number;
  tie: number;
  lose: number;
  /** Sign test of the run's wins vs losses. */ p: number | null;
};

export type PairRow = {
  a: string;
  b: string;
  dimension: string;
  runs: number;
  /** W + T + L of one run (the largest, should a run have failed items). */
  topics: number;
  /** Mean counts over the runs (the counts themselves with one run). */
  win: number;
  tie: number;
  lose: number;
  /** Sample sd of the counts over the runs; null with one run. */
  sd: { win: number; tie: number; lose: number } | null;
  perRun: PairRunRow[];
  /**
   * Significance of the reference's wins over its losses: the two-sided exact sign test of each run (ties
   * left out), reported as the largest p of the runs, so p < 0.01 means every run is significant on its own.
   */
  p: number | null;
};

/** Two-sided exact sign test (binomial, p = 1/2) of `win` against `lose`; null when there is neither. */
export function signTest(win: number, lose: number): number | null {
  const n = win + lose;
  if (n === 0) return null;
  const k = Math.min(win, lose);
  return Math.min(1, 2 * jStat.binomial.cdf(k, n, 0.5));
}

/** Per-run counts → one row per pair and dimension, in the order the pairs first appear. */
export function summarizePairs(runs: readonly PairRunCounts[]): PairRow[] {
  const groups = new Map<string, PairRunCounts[]>();
  for (const r of runs) {
    const k = `${r.a}\u0000${r.b}\u0000${r.dimension}`;
    groups.set(k, [...(groups.get(k) ?? []), r]);
  }
  return [...groups.values()].map((g) => {
    const perRun = [...g]
      .sort((x, y) => x.replicate - y.replicate)
      .map(({ replicate, win, tie, lose }) => ({ replicate, win, tie, lose, p: signTest(win, lose) }));
    const stat = (f: (r: PairRunRow) => number) => meanSd(perRun.map(f));
    const [w, t, l] = [stat((r) => r.win), stat((r) => r.tie), stat((r) => r.lose)];
    const ps = perRun.map((r) => r.p);
    return {
      a: g[0].a,
      b: g[0].b,
      dimension: g[0].dimension,
      runs: perRun.length,
      topics: Math.max(...perRun.map((r) => r.win + r.tie + r.lose)),
      win: w.mean ?? 0,
      tie: t.mean ?? 0,
      lose: l.mean ?? 0,
      sd: perRun.length > 1 ? { win: w.sd ?? 0, tie: t.sd ?? 0, lose: l.sd ?? 0 } : null,
      perRun,
      p: ps.some((p) => p === null) ? null : Math.max(...(ps as number[])),
    };
  });
}
