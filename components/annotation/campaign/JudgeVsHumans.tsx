/** One judge run against the humans on a pairwise campaign (the paper's Table 11): W/T/L, Fleiss and Cohen κ, disagreements. */
import type { StoredTable11 } from "@/lib/annotation/judge-views";
import { listKey, type ShownList } from "@/lib/annotation/judge-item-lists";
import { judgeRunLabel } from "@/lib/annotation/judge-label";
import { DeleteJudgeRunButton } from "@/components/annotation/DeleteJudgeRunButton";
import { StatValue } from "@/components/annotation/AgreementView";
import { ItemLinks } from "./ItemLinks";
import type { CampaignQuery } from "./query";

export function JudgeVsHumans({
  campaignId: id,
  v,
  humans,
  variant,
  systems,
  lists,
  q,
}: {
  campaignId: number;
  v: StoredTable11;
  humans: "vote" | "adjudication";
  variant: "both" | "either";
  systems: { A?: string; B?: string };
  lists: Map<string, ShownList>;
  q: CampaignQuery;
}) {
  return (
    <div className="rounded border border-slate-200 p-3" data-testid={`judge-${v.run.id}`}>
      <h3 className="flex items-center gap-2 font-medium">
        <span>
          {judgeRunLabel(v.run)}: {systems.A} vs {systems.B}
        </span>
        <DeleteJudgeRunButton campaignId={id} runId={v.run.id} name={v.run.name} />
      </h3>
      <table className="mt-2 text-sm" data-testid="table11">
        <thead className="text-left text-xs text-slate-500">
          <tr>
            <th className="p-1.5" />
            {v.dimensions.map((d) => (
              <th key={d.dimension} className="p-1.5">
                {d.title} (W / T / L)
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          <tr>
            <td className="p-1.5">Judge</td>
            {v.dimensions.map((d) => (
              <td key={d.dimension} className="p-1.5 tabular-nums">
                {d.table11.judge.Win} / {d.table11.judge.Tie} / {d.table11.judge.Lose}
              </td>
            ))}
          </tr>
          <tr>
            <td className="p-1.5">Human ({humans})</td>
            {v.dimensions.map((d) => (
              <td key={d.dimension} className="p-1.5 tabular-nums">
                {d.table11.human.Win} / {d.table11.human.Tie} / {d.table11.human.Lose}
              </td>
            ))}
          </tr>
          <tr className="border-t border-slate-100">
            <td className="p-1.5">Fleiss κ, ties dropped ({variant})</td>
            {v.dimensions.map((d) => (
              <td key={d.dimension} className="p-1.5 tabular-nums">
                <StatValue value={d.result.fleissKappa.value} reason={d.result.fleissKappa.reason} /> (n = {d.result.n},{" "}
                {d.result.droppedTies} dropped)
              </td>
            ))}
          </tr>
          <tr>
            <td className="p-1.5">Cohen κ, ties dropped</td>
            {v.dimensions.map((d) => (
              <td key={d.dimension} className="p-1.5 tabular-nums">
                <StatValue value={d.result.cohenKappa.value} reason={d.result.cohenKappa.reason} />
              </td>
            ))}
          </tr>
          <tr>
            <td className="p-1.5">Cohen κ, all items</td>
            {v.dimensions.map((d) => (
              <td key={d.dimension} className="p-1.5 tabular-nums">
                <StatValue value={d.result.plain.cohenKappa.value} reason={d.result.plain.cohenKappa.reason} /> (Fleiss{" "}
                <StatValue value={d.result.plain.fleissKappa.value} reason={d.result.plain.fleissKappa.reason} />)
              </td>
            ))}
          </tr>
          <tr>
            <td className="p-1.5">Disagreements</td>
            {v.dimensions.map((d) => (
              <td key={d.dimension} className="p-1.5 text-xs">
                <ItemLinks
                  campaignId={id}
                  list={lists.get(listKey(v.run.id, d.dimension))}
                  listKey={listKey(v.run.id, d.dimension)}
                  q={q}
                />
              </td>
            ))}
          </tr>
        </tbody>
      </table>
    </div>
  );
}
