/**
 * The items a judge run disagrees on, as the campaign page shows them: the stored report keeps every
 * list as item ids (./judge-views.ts); a page shows the first few of each, or one list opened a page at a
 * time, and reads the titles of only the items it shows (one query by primary key). A campaign of 2,000
 * items with 15 judge runs rendered ~46,000 links before (issue 30.2).
 */
import type { Db } from "@/db/client";
import { pageWindow } from "@/lib/paging";

/** Items shown per list when it is closed, and per page when it is opened. */
export const LIST_PREVIEW = 5;
export const LIST_PAGE = 100;

export interface ItemRef {
  itemId: number;
  externalId: string;
  title: string;
}

export interface ShownList {
  items: ItemRef[];
  total: number;
  /** The list is opened (paged); otherwise its first LIST_PREVIEW items show. */
  open: boolean;
  page: number;
  pageSize: number;
}

/** A list's key in the URL (`?list=<run>-<dimension>&listPage=2`). */
export const listKey = (runId: number, dimension: string) => `${runId}-${dimension}`;

/** The ids a list shows: its preview, or the asked page of the opened list (clamped to the list). */
export function listWindow(ids: readonly number[], open: boolean, page?: number): { ids: number[]; page: number; pageSize: number } {
  if (!open) return { ids: ids.slice(0, LIST_PREVIEW), page: 1, pageSize: LIST_PREVIEW };
  const last = Math.max(1, Math.ceil(ids.length / LIST_PAGE));
  const w = pageWindow(Math.min(page ?? 1, last), LIST_PAGE, { maxSize: LIST_PAGE });
  return { ids: ids.slice(w.offset, w.offset + LIST_PAGE), page: w.page, pageSize: LIST_PAGE };
}

/** Titles of a campaign's items by id; ids of other campaigns (or deleted items) are left out. */
export function itemRefs(db: Db, campaignId: number, ids: readonly number[]): Map<number, ItemRef> {
  const out = new Map<number, ItemRef>();
  const unique = [...new Set(ids)];
  // SQLite binds at most 32,766 parameters; a page asks for a few hundred.
  for (let i = 0; i < unique.length; i += 500) {
    const chunk = unique.slice(i, i + 500);
    const rows = db.$client
      .prepare(
        `SELECT id, external_id AS externalId, title FROM campaign_items WHERE campaign_id = ? AND id IN (${chunk.map(() => "?").join(",")})`,
      )
      .all(campaignId, ...chunk) as Array<{ id: number; externalId: string; title: string | null }>;
    for (const r of rows) out.set(r.id, { itemId: r.id, externalId: r.externalId, title: r.title ?? r.externalId });
  }
  return out;
}

/**
 * Every list the page shows, resolved: `lists` maps a key (listKey) to the stored ids; `open` is the key
 * of the opened list, if any.
 */
export function showLists(
  db: Db,
  campaignId: number,
  lists: ReadonlyMap<string, readonly number[]>,
  open?: { key: string; page?: number },
): Map<string, ShownList> {
  const windows = new Map([...lists].map(([key, ids]) => [key, listWindow(ids, open?.key === key, open?.page)]));
  const refs = itemRefs(
    db,
    campaignId,
    [...windows.values()].flatMap((w) => w.ids),
  );
  return new Map(
    [...windows].map(([key, w]) => [
      key,
      {
        items: w.ids.map((id) => refs.get(id)).filter((x): x is ItemRef => !!x),
        total: lists.get(key)!.length,
        open: open?.key === key,
        page: w.page,
        pageSize: w.pageSize,
      },
    ]),
  );
}
