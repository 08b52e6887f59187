"use client";
import { Fragment, useState } from "react";
import { metricInfo, metricLabel } from "./metric-label";
import { metricColumns, statOf } from "@/lib/experiments/results-columns";

type Stat = { mean: number | null; sd: number | null; p: number | null };
export type ResultsTableRow = { method: string; runs: number; metrics: Record<string, Stat> };

const fmt = (v: number | null) => (v === null ? "—" : v.toFixed(2));

/**
 * One task's metrics, methods as rows, sortable by any column, each metric under its paper name with a
 * one-line legend below, and a chart per metric (values and ± sd whiskers). Costs are a table of their own.
 */
export function ResultsTable({
  task,
  title,
  rows,
  reference,
  names = {},
}: {
  task: string;
  title: string;
  rows: ResultsTableRow[];
  reference: string;
  /** Display names by method key (lib/experiments/method-choices.ts methodNames); the key when absent. */
  names?: Record<string, string>;
}) {
  // Every metric any method has, in the papers' order; rows as given (the experiment's order, the
  // reference first) until a header is clicked.
  const metrics = metricColumns(rows);
  const [sort, setSort] = useState<{ key: string; desc: boolean } | null>(null);
  const value = (r: ResultsTableRow, key: string): number | string =>
    key === "method" ? (names[r.method] ?? r.method) : (r.metrics[key]?.mean ?? -Infinity);
  const sorted = [...rows].sort((a, b) => {
    if (!sort) return 0;
    const x = value(a, sort.key);
    const y = value(b, sort.key);
    const c = typeof x === "string" ? x.localeCompare(String(y)) : x - (y as number);
    return sort.desc ? -c : c;
  });
  const head = (key: string, label: string, legend?: string | null) => (
    <th className="p-2" title={legend ?? undefined}>
      <button
        type="button"
        className="hover:text-indigo-700"
        onClick={() => setSort({ key, desc: sort?.key === key ? !sort.desc : key !== "method" })}
      >
        {label}
        {sort?.key === key ? (sort.desc ? " ↓" : " ↑") : ""}
      </button>
    </th>
  );
  // One line per legend: B-1..B-4 share theirs.
  const legends: Array<{ m: string; label: string; legend: string }> = [];
  for (const m of metrics) {
    const i = metricInfo(m);
    if (!i.legend) continue;
    const same = legends.find((x) => x.legend === i.legend);
    if (same) same.label += `, ${i.label}`;
    else legends.push({ m, label: i.label, legend: i.legend });
  }
  return (
    <section className="mb-5">
      <h2 className="mb-1 font-semibold">{title}</h2>
      <p className="mb-1 text-xs text-slate-500">mean ± sd over runs; p: paired t-test over the runs against {reference}</p>
      <table className="w-full rounded border border-slate-200 bg-white text-sm tabular-nums" data-testid={`results-${task}`}>
        <thead className="bg-slate-50 text-left text-xs text-slate-500">
          <tr>
            {head("method", "Method")}
            <th className="p-2">Runs</th>
            {/* head() is itself the <th>: a <th> inside a <th> is re-nested by the HTML parser (hydration error #418). */}
            {metrics.map((m) => (
              <Fragment key={m}>{head(m, metricLabel(m), metricInfo(m).legend)}</Fragment>
            ))}
          </tr>
        </thead>
        <tbody>
          {sorted.map((r) => (
            <tr key={r.method} className="border-t border-slate-100" data-method={r.method}>
              <td className="p-2 font-medium" title={r.method}>
                {names[r.method] ?? r.method}
              </td>
              <td className="p-2">{r.runs}</td>
              {metrics.map((m) => {
                const x = statOf(r, m);
                return (
                  <td key={m} className="p-2" data-metric={m}>
                    {fmt(x.mean)}
                    {x.sd !== null ? ` ± ${fmt(x.sd)}` : ""}
                    {x.p !== null ? (
                      <span className={`text-xs ${x.p < 0.01 ? "text-emerald-700" : "text-slate-500"}`}> p={x.p.toFixed(3)}</span>
                    ) : null}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
      {legends.length ? (
        <dl className="mt-1 grid grid-cols-1 gap-x-4 text-xs text-slate-600 lg:grid-cols-2" data-testid={`legend-${task}`}>
          {legends.map((x) => (
            <div key={x.m}>
              <dt className="inline font-medium">{x.label}: </dt>
              <dd className="inline">{x.legend}</dd>
            </div>
          ))}
        </dl>
      ) : null}
      <div className="mt-2 grid grid-cols-1 gap-3 md:grid-cols-2 xl:grid-cols-3" data-testid={`charts-${task}`}>
        {metrics.map((m) => (
          <MetricChart key={m} metric={m} rows={rows} names={names} />
        ))}
      </div>
    </section>
  );
}

/** Bars of one metric's mean per method from a zero line (S-Score can be negative), the value written beside each, ± sd as a capped whisker. */
function MetricChart({ metric, rows, names }: { metric: string; rows: ResultsTableRow[]; names: Record<string, string> }) {
  const vals = rows.map((r) => statOf(r, metric));
  const lo = Math.min(0, ...vals.map((v) => (v.mean ?? 0) - (v.sd ?? 0)));
  const hi = Math.max(1e-9, ...vals.map((v) => (v.mean ?? 0) + (v.sd ?? 0)));
  const name = 110;
  const plot = 190;
  const label = 90;
  const bh = 14;
  const gap = 6;
  const x = (v: number) => name + ((v - lo) / (hi - lo)) * plot;
  const label0 = metricLabel(metric);
  return (
    <figure className="rounded border border-slate-100 bg-white p-2">
      <figcaption className="mb-1 text-xs font-medium text-slate-600">{label0} (mean ± sd)</figcaption>
      <svg
        width="100%"
        viewBox={`0 0 ${name + plot + label} ${rows.length * (bh + gap) + 4}`}
        role="img"
        aria-label={`${label0} by method`}
      >
        <line x1={x(0)} x2={x(0)} y1={0} y2={rows.length * (bh + gap)} stroke="#94a3b8" />
        {rows.map((r, i) => {
          const v = statOf(r, metric);
          const shown = (names[r.method] ?? r.method).slice(0, 18);
          const y = i * (bh + gap) + 2;
          if (v.mean === null) {
            return (
              <text key={r.method} x={0} y={y + bh - 3} fontSize={10} fill="#94a3b8">
                {shown} —
              </text>
            );
          }
          const [a, b] = [x(Math.min(0, v.mean)), x(Math.max(0, v.mean))];
          const sd = v.sd ?? 0;
          const [w1, w2] = [x(v.mean - sd), x(v.mean + sd)];
          return (
            <g key={r.method}>
              <title>{`${names[r.method] ?? r.method}: ${fmt(v.mean)}${v.sd !== null ? ` ± ${fmt(v.sd)}` : ""}`}</title>
              <text x={0} y={y + bh - 3} fontSize={10} fill="#475569">
                {shown}
              </text>
              <rect x={a} y={y} width={Math.max(0.5, b - a)} height={bh} fill={v.mean < 0 ? "#f43f5e" : "#6366f1"} opacity={0.85} />
              {sd > 0 ? (
                <g stroke="#1e293b">
                  <line x1={w1} x2={w2} y1={y + bh / 2} y2={y + bh / 2} />
                  <line x1={w1} x2={w1} y1={y + 3} y2={y + bh - 3} />
                  <line x1={w2} x2={w2} y1={y + 3} y2={y + bh - 3} />
                </g>
              ) : null}
              <text x={name + plot + 4} y={y + bh - 3} fontSize={10} fill="#1e293b" data-value={v.mean}>
                {fmt(v.mean)}
                {v.sd !== null ? ` ± ${fmt(v.sd)}` : ""}
              </text>
            </g>
          );
        })}
      </svg>
    </figure>
  );
}
