/**
 * /agreement: each annotator across the campaigns shown, what they labelled and skipped, and per
 * campaign and dimension their kappa with the others' majority (n, and drift when it is flagged).
 */
import Link from "next/link";
import type { AnnotatorAcross } from "@/lib/annotation/annotators-across";
import { fmt } from "@/components/annotation/AgreementView";

export function AnnotatorsAcross({ rows }: { rows: AnnotatorAcross[] }) {
  if (!rows.length) return <p className="text-sm text-slate-500">No annotator has labelled yet.</p>;
  return (
    <div className="overflow-x-auto">
      <table className="w-full text-sm" data-testid="annotators-across">
        <thead className="text-left text-xs text-slate-500">
          <tr>
            <th className="p-1.5">Annotator</th>
            <th className="p-1.5">Campaigns</th>
            <th className="p-1.5">Labelled</th>
            <th className="p-1.5">Skipped</th>
            <th className="p-1.5">κ with the others&rsquo; majority (per campaign · dimension)</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.annotator} className="border-t border-slate-100 align-top">
              <td className="p-1.5 font-medium">{r.annotator}</td>
              <td className="p-1.5 tabular-nums">{r.campaigns}</td>
              <td className="p-1.5 tabular-nums">{r.labels}</td>
              <td className="p-1.5 tabular-nums">{r.skipped}</td>
              <td className="p-1.5">
                <ul className="flex flex-wrap gap-x-4 gap-y-1">
                  {r.agreement.map((a) => (
                    <li key={`${a.campaignId}-${a.dimension}`} className={a.driftFlagged ? "text-rose-700" : undefined}>
                      <Link className="hover:underline" href={`/campaigns/${a.campaignId}`}>
                        {a.campaign} · {a.dimension}
                      </Link>
                      : <span className="tabular-nums">{a.kappa === null ? (a.reason ?? "undefined") : fmt(a.kappa, 2)}</span>
                      <span className="text-xs text-slate-500"> (n {a.n})</span>
                      {a.driftFlagged ? <span className="text-xs"> · drifted</span> : null}
                    </li>
                  ))}
                  {r.agreement.length === 0 ? <li className="text-slate-500">no item shared with a clear majority yet</li> : null}
                </ul>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
