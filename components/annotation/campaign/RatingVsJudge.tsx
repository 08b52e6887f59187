/** One judge run against the annotators on a rating campaign: means, exact match, κ (plain / linear / quadratic), disagreements. */
import type { StoredRatingVsJudge } from "@/lib/annotation/judge-views";
import { listKey, type ShownList } from "@/lib/annotation/judge-item-lists";
import { judgeRunLabel } from "@/lib/annotation/judge-label";
import { fmt, StatValue } from "@/components/annotation/AgreementView";
import { ItemLinks } from "./ItemLinks";
import type { CampaignQuery } from "./query";

export function RatingVsJudge({
  campaignId: id,
  v,
  lists,
  q,
}: {
  campaignId: number;
  v: StoredRatingVsJudge;
  lists: Map<string, ShownList>;
  q: CampaignQuery;
}) {
  return (
    <div className="rounded border border-slate-200 p-3" data-testid={`rating-judge-${v.run.id}`}>
      <h3 className="font-medium">{judgeRunLabel(v.run)} against the annotators</h3>
      <table className="mt-2 text-sm">
        <thead className="text-left text-xs text-slate-500">
          <tr>
            <th className="p-1.5">Dimension</th>
            <th className="p-1.5">Items</th>
            <th className="p-1.5">Judge mean</th>
            <th className="p-1.5">Human mean</th>
            <th className="p-1.5">Exact match</th>
            <th className="p-1.5">Cohen κ (plain / linear / quadratic)</th>
            <th className="p-1.5">Off by ≥ 1</th>
          </tr>
        </thead>
        <tbody>
          {v.dimensions.map((d) => (
            <tr key={d.dimension} className="border-t border-slate-100">
              <td className="p-1.5">{d.title}</td>
              <td className="p-1.5 tabular-nums">{d.n}</td>
              <td className="p-1.5 tabular-nums">
                <StatValue value={d.judgeMean} reason="no item both rated" digits={2} />
              </td>
              <td className="p-1.5 tabular-nums">
                <StatValue value={d.humanMean} reason="no item both rated" digits={2} />
              </td>
              <td className="p-1.5 tabular-nums">{d.exact === null ? "—" : `${fmt(d.exact * 100, 1)}%`}</td>
              <td className="p-1.5 tabular-nums">
                <StatValue value={d.kappa.plain.value} reason={d.kappa.plain.reason} /> / {fmt(d.kappa.linear.value)} /{" "}
                {fmt(d.kappa.quadratic.value)}
                {d.kappa.reading ? ` (${d.kappa.reading})` : ""}
              </td>
              <td className="p-1.5 text-xs">
                <ItemLinks
                  campaignId={id}
                  list={lists.get(listKey(v.run.id, d.dimension))}
                  listKey={listKey(v.run.id, d.dimension)}
                  q={q}
                />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
