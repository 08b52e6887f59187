/** One judge run against the humans on a pairwise campaign (the paper's Table 11): W/T/L, Fleiss and Cohen κ, disagreements. */
import type { StoredTable11 } from "@/lib/annotation/judge-views";
import type { PublishedTable11View, Wtl } from "@/lib/annotation/published-table11";
import { listKey, type ShownList } from "@/lib/annotation/judge-item-lists";
import { judgeRunLabel } from "@/lib/annotation/judge-label";
import { DeleteJudgeRunButton } from "@/components/annotation/DeleteJudgeRunButton";
import { StatValue } from "@/components/annotation/AgreementView";
import { keyDisplayName } from "@/lib/experiments/method-choices";
import { ItemLinks } from "./ItemLinks";
import type { CampaignQuery } from "./query";

/** A campaign's system as the experiment pages name it (H2Memory, not h2memory); "?" when not set. */
const systemName = (key: string | undefined) => (key ? keyDisplayName(key) : "?");

export function JudgeVsHumans({
  campaignId: id,
  v,
  humans,
  variant,
  systems,
  lists,
  q,
  published,
}: {
  campaignId: number;
  v: StoredTable11;
  humans: "vote" | "adjudication";
  variant: "both" | "either";
  systems: { A?: string; B?: string };
  lists: Map<string, ShownList>;
  q: CampaignQuery;
  /** Mem-PAL's own Table 11, set below the run's (pairwise dialogues only). */
  published: PublishedTable11View | null;
}) {
  return (
    <div className="rounded border border-slate-200 p-3" data-testid={`judge-${v.run.id}`}>
      <h3 className="flex items-center gap-2 font-medium">
        <span>
          {judgeRunLabel(v.run)}: {systemName(systems.A)} vs {systemName(systems.B)}
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
        {published ? <PublishedRows p={published} dimensions={v.dimensions.map((d) => d.dimension)} /> : null}
      </table>
      {published ? (
        <div className="mt-1 space-y-0.5 text-xs text-slate-500" data-testid="published-table11-notes">
          {published.notes.map((n) => (
            <p key={n}>{n}</p>
          ))}
        </div>
      ) : null}
    </div>
  );
}

const wtl = (x: Wtl | undefined) => (x ? `${x.Win} / ${x.Tie} / ${x.Lose}` : "—");

/** The paper's rows under the run's, in the same columns; a dimension the paper does not have reads "—". */
function PublishedRows({ p, dimensions }: { p: PublishedTable11View; dimensions: string[] }) {
  const rows: Array<[string, (d: string) => string]> = [
    ["Evaluation-LLM", (d) => wtl(p.dimensions[d]?.judge)],
    ["Human (vote)", (d) => wtl(p.dimensions[d]?.human)],
    ["Fleiss κ, ties dropped (both)", (d) => p.dimensions[d]?.fleissKappa.toFixed(2) ?? "—"],
  ];
  return (
    <tbody
      className="border-t-2 border-slate-200 bg-slate-50 text-slate-600"
      data-testid="published-table11"
      data-same={p.sameComparison ? "yes" : "no"}
    >
      <tr>
        <td colSpan={dimensions.length + 1} className="px-1.5 pt-1.5 text-xs italic">
          {p.label}
        </td>
      </tr>
      {rows.map(([name, value]) => (
        <tr key={name}>
          <td className="p-1.5">{name}</td>
          {dimensions.map((d) => (
            <td key={d} className="p-1.5 tabular-nums">
              {value(d)}
            </td>
          ))}
        </tr>
      ))}
    </tbody>
  );
}
