/**
 * The columns of a task's "All metrics" table: every metric any method has so far, in the papers' order.
 * While a run goes on, one method may have a metric another has not scored yet (HiCUPID: one method's
 * first judgments are in, another's are not): reading the columns off the first row left a cell
 * undefined, and the page threw ("This page couldn't load", issue 34.4) until the run was done.
 */
import { metricOrder } from "./metric-label";

export type MetricStat = { mean: number | null; sd: number | null; p: number | null };

const NONE: MetricStat = { mean: null, sd: null, p: null };

export function metricColumns(rows: ReadonlyArray<{ metrics: Record<string, MetricStat> }>): string[] {
  return [...new Set(rows.flatMap((r) => Object.keys(r.metrics)))].sort(metricOrder);
}

/** A row's value of a metric, empty ("—") when the method has none yet. */
export function statOf(r: { metrics: Record<string, MetricStat> }, metric: string): MetricStat {
  return r.metrics[metric] ?? NONE;
}
