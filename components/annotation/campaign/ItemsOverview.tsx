/** Every item (or only the disagreements) with the humans' and judges' labels per dimension; the first 500 are listed. */
import Link from "next/link";
import type { DimensionSpec, ItemOverview } from "@/lib/annotation";
import type { CampaignQuery } from "./query";
import { cellWords } from "@/lib/annotation/cell-words";

export function ItemsOverview({
  campaignId: id,
  overview,
  dims,
  onlyDisagreements,
  q,
}: {
  campaignId: number;
  overview: ItemOverview[];
  dims: DimensionSpec[];
  onlyDisagreements: boolean;
  q: CampaignQuery;
}) {
  return (
    <section className="rounded-lg border border-slate-200 bg-white p-4">
      <h2 className="mb-2 font-semibold">
        Items{" "}
        <span className="text-sm font-normal">
          <Link className={onlyDisagreements ? "text-indigo-700" : "font-semibold"} href={q({ items: "all" })}>
            all
          </Link>{" "}
          /{" "}
          <Link className={onlyDisagreements ? "font-semibold" : "text-indigo-700"} href={q({ items: "disagreements" })}>
            only disagreements
          </Link>
        </span>
      </h2>
      <table className="w-full text-sm" data-testid="items-table">
        <thead className="text-left text-xs text-slate-500">
          <tr>
            <th className="p-1.5">Item</th>
            {dims.map((d) => (
              <th key={d.key} className="p-1.5">
                {d.title}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {overview.slice(0, 500).map((r) => (
            <tr key={r.itemId} className={`border-t border-slate-100 ${r.disagree ? "bg-rose-50/40" : ""}`}>
              <td className="p-1.5">
                <Link className="text-indigo-700 hover:underline" href={`/campaigns/${id}/items/${r.itemId}`} title={r.externalId}>
                  {r.title}
                </Link>
              </td>
              {dims.map((d) => (
                <td key={d.key} className="p-1.5 text-xs">
                  {cellWords(r.cells[d.key], d.categories)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
      {overview.length > 500 ? (
        <p className="mt-1 text-xs text-slate-500">First 500 of {overview.length} shown; the export has them all.</p>
      ) : null}
    </section>
  );
}
