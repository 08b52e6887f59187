/**
 * Each annotator of a campaign: labels, skips, median time per item, and per dimension Cohen's kappa with
 * the others' majority (leave-one-out) and its drift from their first half of items to their second.
 */
import type { AnnotatorStats } from "@/lib/annotation/agreement-annotators";
import type { DimensionSpec } from "@/lib/annotation/kinds";
import { DRIFT_FLAG, DRIFT_MIN_PER_HALF, type Drift } from "@/lib/agreement/annotators";
import { StatValue, fmt } from "./AgreementView";

/** "0.90 (n 40) → 0.55 (n 38), −0.35 [−0.60, −0.10]": red only when flagged; grey with "few items" below the minimum. */
function DriftCell({ dr, testId }: { dr: Drift; testId: string }) {
  const few = dr.first.n < DRIFT_MIN_PER_HALF || dr.second.n < DRIFT_MIN_PER_HALF;
  const ci = dr.ci ?? null;
  const sign = (x: number) => (x > 0 ? `+${fmt(x, 2)}` : x < 0 ? `−${fmt(-x, 2)}` : fmt(x, 2));
  return (
    <span
      className={`ml-2 block text-xs ${dr.flagged ? "text-rose-700" : "text-slate-500"}`}
      data-testid={testId}
      data-flagged={dr.flagged ? "yes" : "no"}
    >
      drift {fmt(dr.first.kappa, 2)} (n {dr.first.n}) → {fmt(dr.second.kappa, 2)} (n {dr.second.n})
      {dr.change !== null ? `, ${sign(dr.change)}` : ""}
      {ci ? ` [${sign(ci[0])}, ${sign(ci[1])}]` : ""}
      {few ? <span className="italic"> · too few items per half to judge</span> : null}
    </span>
  );
}

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
                    {dr && dr.change !== null ? <DriftCell dr={dr} testId={`drift-${a.annotator}-${d.key}`} /> : null}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
      <p className="mt-1 text-xs text-slate-500">
        κ with the others: Cohen&apos;s kappa between the annotator and the others&apos; majority on the items they share (split majorities
        left out). Drift: that kappa on their first half of items, then on their second, with n per half and a 95% bootstrap interval of the
        change; red only when it falls by {DRIFT_FLAG} or more, the interval lies below zero and each half has at least {DRIFT_MIN_PER_HALF}{" "}
        items (fewer: a single item moves a half&apos;s kappa by 0.1 or more).
      </p>
    </div>
  );
}
