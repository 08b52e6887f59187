"use client";
/**
 * A forest plot of kappas with their 95% intervals across campaigns and dimensions: the humans' Fleiss κ
 * (indigo) and each judge's Cohen κ against the humans (amber), with the Landis–Koch bands marked.
 */
import { CartesianGrid, ErrorBar, ReferenceLine, Scatter, ScatterChart, Tooltip, XAxis, YAxis } from "recharts";
import type { ForestRow } from "@/lib/annotation/agreement-dashboard";
import { MIN_ITEMS_FOR_INTERVAL, TOO_FEW_TEXT } from "@/lib/agreement/interpret";

const COLOR = { humans: "#4f46e5", judge: "#d97706" } as const;

export function ForestPlot({ rows }: { rows: ForestRow[] }) {
  if (!rows.length) return <p className="text-sm text-slate-500">No kappa with an interval yet.</p>;
  const data = rows.map((r) => ({
    ...r,
    // A row below the minimum n says so in its label and is drawn hollow, without a bar (issue 44.4).
    row: r.tooFew ? `${r.label} (n = ${r.n}, too few)` : `${r.label} (n = ${r.n})`,
    // ErrorBar takes the distances below and above the point.
    err: r.lower !== null && r.upper !== null ? [r.value - r.lower, r.upper - r.value] : [0, 0],
  }));
  const height = 70 + rows.length * 30;
  const series = (who: ForestRow["who"], tooFew: boolean) => data.filter((d) => d.who === who && d.tooFew === tooFew);
  const anyFew = rows.some((r) => r.tooFew);
  return (
    <figure data-testid="forest-plot">
      <ScatterChart width={1040} height={height} margin={{ top: 8, right: 24, bottom: 24, left: 8 }}>
        <CartesianGrid strokeDasharray="3 3" horizontal={false} />
        <XAxis
          type="number"
          dataKey="value"
          domain={[-1, 1]}
          ticks={[-1, -0.5, 0, 0.2, 0.4, 0.6, 0.8, 1]}
          fontSize={11}
          label={{ value: "κ (95% bootstrap interval)", position: "insideBottom", offset: -12, fontSize: 11 }}
        />
        <YAxis type="category" dataKey="row" allowDuplicatedCategory={false} width={400} fontSize={11} interval={0} />
        <ReferenceLine x={0} stroke="#94a3b8" />
        {[0.4, 0.6, 0.8].map((x) => (
          <ReferenceLine key={x} x={x} stroke="#cbd5e1" strokeDasharray="2 4" />
        ))}
        <Tooltip
          cursor={false}
          content={({ payload }) => {
            const p = payload?.[0]?.payload as ForestRow | undefined;
            if (!p) return null;
            return (
              <div className="rounded border border-slate-200 bg-white p-2 text-xs shadow">
                <div className="font-semibold">{p.label}</div>κ = {p.value.toFixed(3)}
                {p.tooFew
                  ? ` (${TOO_FEW_TEXT})`
                  : p.lower !== null && p.upper !== null
                    ? ` [${p.lower.toFixed(3)}, ${p.upper.toFixed(3)}]`
                    : " (no interval)"}{" "}
                · n = {p.n}
              </div>
            );
          }}
        />
        {(["humans", "judge"] as const).map((who) => (
          <Scatter key={who} name={who} data={series(who, false)} fill={COLOR[who]} isAnimationActive={false}>
            <ErrorBar dataKey="err" direction="x" width={6} strokeWidth={2} stroke={COLOR[who]} />
          </Scatter>
        ))}
        {(["humans", "judge"] as const).map((who) => (
          <Scatter
            key={`${who}-few`}
            name={`${who} (too few items)`}
            data={series(who, true)}
            fill="#ffffff"
            stroke={COLOR[who]}
            strokeWidth={2}
            isAnimationActive={false}
          />
        ))}
      </ScatterChart>
      <figcaption className="mt-1 flex gap-4 text-xs text-slate-600">
        <span>
          <span className="mr-1 inline-block h-2 w-2 rounded-full" style={{ background: COLOR.humans }} />
          annotators: Fleiss&apos; κ
        </span>
        <span>
          <span className="mr-1 inline-block h-2 w-2 rounded-full" style={{ background: COLOR.judge }} />
          judge vs humans: Cohen&apos;s κ (pairwise: ties dropped, as Mem-PAL Table 11)
        </span>
        <span>dotted lines: 0.4 / 0.6 / 0.8 (moderate / substantial / almost perfect)</span>
        {anyFew ? (
          <span data-testid="forest-too-few">
            <span className="mr-1 inline-block h-2 w-2 rounded-full border-2 border-slate-600 bg-white" />
            hollow, &quot;too few&quot;: n below {MIN_ITEMS_FOR_INTERVAL}, {TOO_FEW_TEXT}
          </span>
        ) : null}
      </figcaption>
    </figure>
  );
}
