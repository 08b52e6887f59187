/**
 * Each annotator of a campaign: labels, skips, median time per item, and per dimension Cohen's kappa with
 * the others' majority (leave-one-out) and its drift from their first half of items to their second.
 */
import type { AnnotatorStats } from "@/lib/annotation/agreement-annotators";
import type { DimensionSpec } from "@/lib/annotation/kinds";
import { StatValue, fmt } from "./AgreementView";

export function AnnotatorsTable({ annotators, dims }: { annotators: AnnotatorStats[]; dims: DimensionSpec[] }) {
  if (!annotators.length) return <p className="text-sm text-slate-500">No annotator yet.</p>;
  return (
    <div className="overflow-x-auto">
      <table className="w-full text-sm" data-testid="annotators-table">
        <thead className="text-left text-xs text-slate-500">
          <tr>
            <th className="p-1.5">Annotator</th>
            <th className="p-1.5">Labelled</th>
            <th className="p-1.5">Skipped</th>
            <th className="p-1.5">Median s / item</th>
            {dims.map((d) => (
              <th key={d.key} className="p-1.5">
                {d.title}: κ with the others (n) · drift
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {annotators.map((a) => (
            <tr key={a.annotator} className="border-t border-slate-100" data-testid={`annotator-${a.annotator}`}>
              <td className="p-1.5 text-xs">{a.annotator}</td>
              <td className="p-1.5 tabular-nums">{a.labels}</td>
              <td className="p-1.5 tabular-nums">{a.skipped}</td>
              <td className="p-1.5 tabular-nums">{fmt(a.medianSeconds, 1)}</td>
              {dims.map((d) => {
                const g = a.agreement[d.key];
                const dr = a.drift[d.key];
                return (
                  <td key={d.key} className="p-1.5 tabular-nums" data-testid={`annotator-${a.annotator}-${d.key}`}>
                    {g ? (
                      <>
                        <StatValue value={g.kappa} reason={g.reason} /> <span className="text-xs text-slate-500">({g.n})</span>
                      </>
                    ) : (
                      "—"
                    )}
                    {dr && dr.change !== null ? (
                      <span
                        className={`ml-2 text-xs ${dr.change <= -0.2 ? "text-rose-700" : "text-slate-500"}`}
                        title={`first half ${fmt(dr.first.kappa)} (n = ${dr.first.n}), second half ${fmt(dr.second.kappa)} (n = ${dr.second.n})`}
                      >
                        {fmt(dr.first.kappa, 2)} → {fmt(dr.second.kappa, 2)}
                      </span>
                    ) : null}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
      <p className="mt-1 text-xs text-slate-500">
        κ with the others: Cohen&apos;s kappa between the annotator and the others&apos; majority on the items they share (split majorities
        left out). Drift: that kappa on their first half of items, then on their second (red: down by 0.2 or more).
      </p>
    </div>
  );
}
