/** Every item (or only the disagreements) with the humans' and judges' labels per dimension, a page of 100 at a time. */
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
  overview: { rows: ItemOverview[]; total: number; page: number; size: number };
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
          {overview.rows.map((r) => (
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
      {overview.total > overview.size ? (
        <p className="mt-1 flex items-center gap-3 text-xs text-slate-500" data-testid="items-pager">
          <span>
            {(overview.page - 1) * overview.size + 1}–{Math.min(overview.total, overview.page * overview.size)} of {overview.total} (the
            export has them all)
          </span>
          {overview.page > 1 ? (
            <Link className="text-indigo-700" href={q({ itemsPage: String(overview.page - 1) })}>
              ← previous
            </Link>
          ) : null}
          {overview.page * overview.size < overview.total ? (
            <Link className="text-indigo-700" href={q({ itemsPage: String(overview.page + 1) })}>
              next →
            </Link>
          ) : null}
        </p>
      ) : null}
    </section>
  );
}
