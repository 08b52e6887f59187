"use client";
import { Fragment, useState } from "react";
import { metricLabel } from "./metric-label";

type Stat = { mean: number | null; sd: number | null; p: number | null };
type Ledger = { calls: number; cacheHits: number; promptTokens: number; completionTokens: number; cost?: number | null };
export type ResultsTableRow = {
  method: string;
  runs: number;
  metrics: Record<string, Stat>;
  /** The answering calls (the method's jobs). */
  ledger: Ledger | null;
  /** Building the memory versions the method answered from, shown apart (null: it keeps no memory). */
  memory: Ledger | null;
};

const fmt = (v: number | null) => (v === null ? "—" : v.toFixed(2));

/** One task's results, methods as rows (as in the papers' tables), sortable by any column, with a bar chart per metric. */
export function ResultsTable({
  task,
  rows,
  reference,
  names = {},
}: {
  task: string;
  rows: ResultsTableRow[];
  reference: string;
  /** Display names by method key (lib/experiments/method-choices.ts methodNames); the key when absent. */
  names?: Record<string, string>;
}) {
  const metrics = Object.keys(rows[0]?.metrics ?? {});
  const withCost = rows.some((r) => typeof r.ledger?.cost === "number");
  const withMemory = rows.some((r) => r.memory !== null);
  const [sort, setSort] = useState<{ key: string; desc: boolean }>({ key: "method", desc: false });
  const value = (r: ResultsTableRow, key: string): number | string =>
    key === "method"
      ? (names[r.method] ?? r.method)
      : key === "calls"
        ? (r.ledger?.calls ?? -1)
        : key === "tokens"
          ? r.ledger
            ? r.ledger.promptTokens + r.ledger.completionTokens
            : -1
          : (r.metrics[key]?.mean ?? -Infinity);
  const sorted = [...rows].sort((a, b) => {
    const x = value(a, sort.key);
    const y = value(b, sort.key);
    const c = typeof x === "string" ? x.localeCompare(String(y)) : x - (y as number);
    return sort.desc ? -c : c;
  });
  const head = (key: string, label: string) => (
    <th className="p-2">
      <button
        type="button"
        className="uppercase hover:text-indigo-700"
        onClick={() => setSort({ key, desc: sort.key === key ? !sort.desc : key !== "method" })}
      >
        {label}
        {sort.key === key ? (sort.desc ? " ↓" : " ↑") : ""}
      </button>
    </th>
  );
  return (
    <section className="mb-5">
      <h2 className="mb-1 font-semibold">{task}</h2>
      <p className="mb-1 text-xs text-slate-500">mean ± sd over runs; p: paired t-test against {reference}</p>
      <table className="w-full rounded border border-slate-200 bg-white text-sm" data-testid={`results-${task}`}>
        <thead className="bg-slate-50 text-left text-xs uppercase text-slate-500">
          <tr>
            {head("method", "Method")}
            <th className="p-2">Runs</th>
            {/* head() is itself the <th>: a <th> inside a <th> is re-nested by the HTML parser (hydration error #418). */}
            {metrics.map((m) => (
              <Fragment key={m}>{head(m, metricLabel(m))}</Fragment>
            ))}
            {head("calls", "Calls")}
            <th className="p-2">Cache hits</th>
            {head("tokens", "Tokens")}
            {withCost ? <th className="p-2">Cost (USD)</th> : null}
            {withMemory ? (
              <th className="p-2" title="building the memory the method answered from (once per user; shared by every task)">
                Memory build: calls / cache hits / tokens{withCost ? " / cost" : ""}
              </th>
            ) : null}
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
                const x = r.metrics[m];
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
              <td className="p-2 text-xs">{r.ledger?.calls ?? "—"}</td>
              <td className="p-2 text-xs">{r.ledger?.cacheHits ?? "—"}</td>
              <td className="p-2 text-xs">{r.ledger ? `${r.ledger.promptTokens} + ${r.ledger.completionTokens}` : "—"}</td>
              {withCost ? (
                <td className="p-2 text-xs" data-testid="cost">
                  {typeof r.ledger?.cost === "number" ? r.ledger.cost.toFixed(4) : "—"}
                </td>
              ) : null}
              {withMemory ? (
                <td className="p-2 text-xs" data-testid="memory-build">
                  {r.memory
                    ? `${r.memory.calls} / ${r.memory.cacheHits} / ${r.memory.promptTokens} + ${r.memory.completionTokens}` +
                      (withCost ? ` / ${typeof r.memory.cost === "number" ? r.memory.cost.toFixed(4) : "—"}` : "")
                    : "—"}
                </td>
              ) : null}
            </tr>
          ))}
        </tbody>
      </table>
      <div className="mt-2 grid grid-cols-2 gap-3 md:grid-cols-4" data-testid={`charts-${task}`}>
        {metrics.map((m) => (
          <MetricChart key={m} metric={m} rows={rows} />
        ))}
      </div>
    </section>
  );
}

/** Bars of one metric's mean per method, with the sd as a whisker. */
function MetricChart({ metric, rows }: { metric: string; rows: ResultsTableRow[] }) {
  const vals = rows.map((r) => r.metrics[metric]);
  const max = Math.max(1e-9, ...vals.map((v) => Math.abs(v.mean ?? 0) + (v.sd ?? 0)));
  const w = 160;
  const bh = 14;
  return (
    <figure className="rounded border border-slate-100 bg-white p-2">
      <figcaption className="mb-1 text-xs font-medium text-slate-600">{metric}</figcaption>
      <svg width="100%" viewBox={`0 0 ${w + 80} ${rows.length * (bh + 4)}`} role="img" aria-label={`${metric} by method`}>
        {rows.map((r, i) => {
          const v = r.metrics[metric];
          const len = (Math.abs(v.mean ?? 0) / max) * w;
          const sd = ((v.sd ?? 0) / max) * w;
          const y = i * (bh + 4);
          return (
            <g key={r.method}>
              <text x={0} y={y + bh - 3} fontSize={10} fill="#475569">
                {r.method.slice(0, 12)}
              </text>
              <rect x={80} y={y} width={len} height={bh} fill={(v.mean ?? 0) < 0 ? "#f43f5e" : "#6366f1"} />
              {sd > 0 ? <line x1={80 + len - sd} x2={80 + len + sd} y1={y + bh / 2} y2={y + bh / 2} stroke="#1e293b" /> : null}
            </g>
          );
        })}
      </svg>
    </figure>
  );
}
