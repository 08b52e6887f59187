import Link from "next/link";
import type { ShownList } from "@/lib/annotation/judge-item-lists";
import type { CampaignQuery } from "./query";

/**
 * Links to the items a judge and the annotators disagree on, by their titles (the id on hover), one per
 * line: the first few, or the opened list a page at a time (lib/annotation/judge-item-lists.ts).
 */
export function ItemLinks({ campaignId, list, listKey, q }: { campaignId: number; list?: ShownList; listKey: string; q: CampaignQuery }) {
  if (!list || !list.total) return null;
  const from = (list.page - 1) * list.pageSize;
  return (
    <div data-testid={`item-list-${listKey}`}>
      <ul className="space-y-0.5">
        {list.items.map((x) => (
          <li key={x.itemId}>
            <Link className="text-indigo-700 hover:underline" href={`/campaigns/${campaignId}/items/${x.itemId}`} title={x.externalId}>
              {x.title}
            </Link>
          </li>
        ))}
      </ul>
      {list.open ? (
        <p className="mt-1 flex flex-wrap gap-2 text-slate-500">
          <span>
            {from + 1}–{Math.min(list.total, from + list.pageSize)} of {list.total}
          </span>
          {list.page > 1 ? (
            <Link className="text-indigo-700" href={q({ list: listKey, listPage: String(list.page - 1) })}>
              ← previous
            </Link>
          ) : null}
          {from + list.pageSize < list.total ? (
            <Link className="text-indigo-700" href={q({ list: listKey, listPage: String(list.page + 1) })}>
              next →
            </Link>
          ) : null}
          <Link className="text-indigo-700" href={q({})}>
            close
          </Link>
        </p>
      ) : list.total > list.items.length ? (
        <Link className="mt-1 inline-block text-indigo-700" href={q({ list: listKey })}>
          all {list.total} →
        </Link>
      ) : null}
    </div>
  );
}
