"use client";
/**
 * Tie-margin calibration chart: per dimension, the judge's agreement with the humans (Cohen and Fleiss,
 * all items and ties dropped) as the margin goes from 0 to 3, the best margin and the run's own margin
 * marked; the judge's W/T/L at each margin in the table below.
 */
import { CartesianGrid, Legend, Line, LineChart, ReferenceLine, Tooltip, XAxis, YAxis } from "recharts";
import type { TieMarginCalibration } from "@/lib/annotation/calibration";
import { undrawableCurve } from "@/lib/agreement/tie-margin";

// The four series often coincide (Cohen and Fleiss are close on two raters): the Cohen lines are wide,
// translucent bands drawn first, the Fleiss lines thin dashes on top, so a line on another stays visible.
const SERIES = [
  { key: "cohenPlain", label: "Cohen κ, all items", color: "#4f46e5", dash: undefined, width: 6, opacity: 0.35, dot: 4 },
  { key: "cohenDropped", label: "Cohen κ, ties dropped", color: "#f59e0b", dash: undefined, width: 6, opacity: 0.35, dot: 4 },
  { key: "fleissPlain", label: "Fleiss κ, all items", color: "#0ea5e9", dash: "6 3", width: 2, opacity: 1, dot: 2 },
  { key: "fleissDropped", label: "Fleiss κ, ties dropped", color: "#10b981", dash: "2 3", width: 2, opacity: 1, dot: 2 },
] as const;

export function TieMarginChart({ cal }: { cal: TieMarginCalibration }) {
  return (
    <div className="space-y-3" data-testid={`calibration-${cal.run.id}`}>
      <div className="flex flex-wrap gap-4">
        {cal.dimensions.map((d) => {
          const data = d.curve.map((p) => ({
            margin: p.margin,
            cohenPlain: p.plain.cohen.value,
            fleissPlain: p.plain.fleiss.value,
            cohenDropped: p.dropped.cohen.value,
            fleissDropped: p.dropped.fleiss.value,
          }));
          const why = undrawableCurve(d.curve);
          const caption = (
            <figcaption className="text-xs font-semibold text-slate-600">
              {d.title} (n = {d.curve[0]?.n ?? 0}
              {d.unscored ? `, ${d.unscored} without scores left out` : ""})
            </figcaption>
          );
          // Every kappa undefined: say why instead of drawing empty axes.
          if (why)
            return (
              <figure
                key={d.dimension}
                className="w-[520px] rounded border border-slate-100 p-2"
                data-testid={`calibration-chart-${d.dimension}`}
              >
                {caption}
                <p className="mt-2 text-sm text-slate-600" data-testid={`calibration-undefined-${d.dimension}`}>
                  No curve to draw: every κ is undefined at every margin ({why}). The W/T/L per margin are in the table below.
                </p>
              </figure>
            );
          return (
            <figure key={d.dimension} className="rounded border border-slate-100 p-2" data-testid={`calibration-chart-${d.dimension}`}>
              {caption}
              <LineChart width={520} height={260} data={data} margin={{ top: 16, right: 16, bottom: 24, left: 0 }}>
                <CartesianGrid strokeDasharray="3 3" />
                <XAxis
                  dataKey="margin"
                  type="number"
                  domain={[0, 3]}
                  ticks={[0, 0.5, 1, 1.5, 2, 2.5, 3]}
                  fontSize={11}
                  label={{ value: "tie margin", position: "insideBottom", offset: -8, fontSize: 11 }}
                />
                <YAxis domain={[-1, 1]} ticks={[-1, -0.5, 0, 0.5, 1]} fontSize={11} />
                <Tooltip
                  formatter={(v) => (typeof v === "number" ? v.toFixed(3) : "— (undefined)")}
                  labelFormatter={(m) => `margin ${m}`}
                />
                <Legend wrapperStyle={{ fontSize: 11, paddingTop: 16 }} />
                {cal.best !== null ? (
                  <ReferenceLine
                    x={cal.best}
                    stroke="#dc2626"
                    strokeWidth={2}
                    label={{ value: `best ${cal.best}`, position: "top", fontSize: 11, fill: "#dc2626" }}
                  />
                ) : null}
                {cal.run.margin !== null && cal.run.margin !== cal.best ? (
                  <ReferenceLine
                    x={cal.run.margin}
                    stroke="#64748b"
                    strokeDasharray="2 2"
                    label={{ value: "run", position: "top", fontSize: 10 }}
                  />
                ) : null}
                {SERIES.map((s) => (
                  <Line
                    key={s.key}
                    dataKey={s.key}
                    name={s.label}
                    stroke={s.color}
                    strokeDasharray={s.dash}
                    strokeWidth={s.width}
                    strokeOpacity={s.opacity}
                    dot={{ r: s.dot, fillOpacity: s.opacity }}
                    connectNulls={false}
                    isAnimationActive={false}
                  />
                ))}
              </LineChart>
            </figure>
          );
        })}
      </div>
      <div className="overflow-x-auto">
        <table className="text-xs tabular-nums" data-testid="calibration-table">
          <thead className="text-left text-slate-500">
            <tr>
              <th className="p-1">Margin</th>
              {cal.dimensions.map((d) => (
                <th key={d.dimension} className="p-1">
                  {d.title}: judge W / T / L · κ Cohen (all / ties dropped)
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            <tr className="text-slate-500">
              <td className="p-1">Humans</td>
              {cal.dimensions.map((d) => (
                <td key={d.dimension} className="p-1">
                  {d.curve[0] ? `${d.curve[0].human.Win} / ${d.curve[0].human.Tie} / ${d.curve[0].human.Lose}` : "—"}
                </td>
              ))}
            </tr>
            {(cal.dimensions[0]?.curve ?? []).map((p, i) => (
              <tr key={p.margin} className={`border-t border-slate-100 ${p.margin === cal.best ? "bg-rose-50 font-semibold" : ""}`}>
                <td className="p-1">
                  {p.margin.toFixed(2)}
                  {p.margin === cal.best ? " ← best" : ""}
                  {p.margin === cal.run.margin ? " (run)" : ""}
                </td>
                {cal.dimensions.map((d) => {
                  const q = d.curve[i];
                  const k = (v: number | null) => (v === null ? "—" : v.toFixed(3));
                  return (
                    <td key={d.dimension} className="p-1">
                      {q.judge.Win} / {q.judge.Tie} / {q.judge.Lose} · {k(q.plain.cohen.value)} / {k(q.dropped.cohen.value)}
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}
