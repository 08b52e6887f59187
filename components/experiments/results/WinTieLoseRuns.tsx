import type { PairRow } from "@/lib/experiments/paper-table/wtl";

const f = (v: number, runs: number) => (runs > 1 ? v.toFixed(1) : String(v));
const p = (v: number | null) => (v === null ? "—" : v < 0.001 ? "< 0.001" : v.toFixed(3));

/** Win / Tie / Lose per pair and dimension: the mean ± sd over runs, then each run's counts with its sign test. */
export function WinTieLoseRuns({ pairs, testId = "results-pairwise" }: { pairs: PairRow[]; testId?: string }) {
  const runs = Math.max(0, ...pairs.map((r) => r.runs));
  const replicates = [...new Set(pairs.flatMap((r) => r.perRun.map((x) => x.replicate)))].sort((a, b) => a - b);
  return (
    <table className="w-full rounded border border-slate-200 bg-white text-sm tabular-nums" data-testid={testId}>
      <thead className="bg-slate-50 text-left text-xs text-slate-500">
        <tr>
          <th className="p-2">Reference</th>
          <th className="p-2">vs</th>
          <th className="p-2">Dimension</th>
          <th className="p-2">W / T / L{runs > 1 ? ` (mean ± sd over ${runs} runs)` : ""}</th>
          {replicates.length > 1
            ? replicates.map((r) => (
                <th key={r} className="p-2">
                  Run {r + 1}
                </th>
              ))
            : null}
          <th className="p-2" title="two-sided sign test of wins vs losses, the largest p of the runs">
            p (sign test)
          </th>
        </tr>
      </thead>
      <tbody>
        {pairs.map((r) => (
          <tr
            key={`${r.a}${r.b}${r.dimension}`}
            className="border-t border-slate-100"
            data-pair={`${r.a}~${r.b}`}
            data-dimension={r.dimension}
          >
            <td className="p-2">{r.a}</td>
            <td className="p-2">{r.b}</td>
            <td className="p-2">{r.dimension}</td>
            <td className="p-2" data-testid="wtl-mean">
              {f(r.win, r.runs)} / {f(r.tie, r.runs)} / {f(r.lose, r.runs)}
              {r.sd ? (
                <span className="text-xs text-slate-500">
                  {" "}
                  (± {r.sd.win.toFixed(1)} / {r.sd.tie.toFixed(1)} / {r.sd.lose.toFixed(1)})
                </span>
              ) : null}
            </td>
            {replicates.length > 1
              ? replicates.map((rep) => {
                  const x = r.perRun.find((y) => y.replicate === rep);
                  return (
                    <td key={rep} className="p-2 text-xs" data-run={rep}>
                      {x ? `${x.win} / ${x.tie} / ${x.lose}` : "—"}
                    </td>
                  );
                })
              : null}
            <td className="p-2 text-xs">{p(r.p)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
