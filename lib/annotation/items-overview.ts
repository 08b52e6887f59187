/**
 * A campaign's items with their human labels and judge verdicts per dimension, and whether they disagree:
 * a page at a time, reading only label values (never the judges' stored judgments) for the items shown,
 * so the campaign page's cost does not grow with the campaign. "Only disagreements" has to look at every
 * item; it reads the values alone too.
 */
import type { Db } from "@/db/client";
import { campaignDimensionsOf } from "./campaigns";

export interface ItemOverview {
  itemId: number;
  externalId: string;
  title: string;
  cells: Record<string, { humans: string[]; judges: string[]; adjudicated: string | null }>;
  /** Some dimension has two different labels among the humans and judges. */
  disagree: boolean;
}

export const OVERVIEW_PAGE = 100;

type Item = { id: number; externalId: string; title: string | null };

function rowsFor(db: Db, campaignId: number, items: Item[]): ItemOverview[] {
  if (!items.length) return [];
  const dims = campaignDimensionsOf(db, campaignId);
  const ids = items.map((i) => i.id);
  const inList = `(${ids.map(() => "?").join(",")})`;
  const humans = db.$client
    .prepare(
      `SELECT a.item_id AS itemId, l.dimension AS dimension, l.value AS value FROM labels l JOIN assignments a ON a.id = l.assignment_id
       JOIN users u ON u.id = a.annotator_id WHERE a.status = 'done' AND a.item_id IN ${inList} ORDER BY u.email`,
    )
    .all(...ids) as Array<{ itemId: number; dimension: string; value: string }>;
  const judges = db.$client
    .prepare(
      `SELECT j.item_id AS itemId, j.dimension AS dimension, j.value AS value FROM judge_labels j JOIN judge_runs r ON r.id = j.run_id
       WHERE r.campaign_id = ? AND j.item_id IN ${inList} ORDER BY r.id`,
    )
    .all(campaignId, ...ids) as Array<{ itemId: number; dimension: string; value: string }>;
  const adjudicated = db.$client
    .prepare(`SELECT item_id AS itemId, dimension, value FROM adjudications WHERE item_id IN ${inList}`)
    .all(...ids) as Array<{ itemId: number; dimension: string; value: string }>;
  const group = (rows: Array<{ itemId: number; dimension: string; value: string }>) => {
    const m = new Map<string, string[]>();
    for (const r of rows) {
      const k = `${r.itemId}\u0000${r.dimension}`;
      m.set(k, [...(m.get(k) ?? []), r.value]);
    }
    return m;
  };
  const h = group(humans);
  const j = group(judges);
  const adj = new Map(adjudicated.map((a) => [`${a.itemId}\u0000${a.dimension}`, a.value]));
  return items.map((it) => {
    const cells: ItemOverview["cells"] = {};
    let disagree = false;
    for (const d of dims) {
      const k = `${it.id}\u0000${d.key}`;
      const hs = h.get(k) ?? [];
      const js = j.get(k) ?? [];
      if (new Set([...hs, ...js]).size > 1) disagree = true;
      cells[d.key] = { humans: hs, judges: js, adjudicated: adj.get(k) ?? null };
    }
    return { itemId: it.id, externalId: it.externalId, title: it.title ?? it.externalId, cells, disagree };
  });
}

/**
 * One page of the items (position order), or every item where the humans and judges disagree. `total`
 * counts the items of the view (all items, or the disagreements).
 */
export function itemsOverview(
  db: Db,
  campaignId: number,
  opts: { onlyDisagreements?: boolean; page?: number } = {},
): { rows: ItemOverview[]; total: number; page: number; size: number } {
  const page = Math.max(1, Math.floor(opts.page ?? 1));
  // Generated attention checks are no items of the study: left out of its table (participants/attention.ts).
  const select =
    "SELECT id, external_id AS externalId, title FROM campaign_items WHERE campaign_id = ? AND attention IS NULL ORDER BY position";
  if (opts.onlyDisagreements) {
    const all = rowsFor(db, campaignId, db.$client.prepare(select).all(campaignId) as Item[]).filter((r) => r.disagree);
    return { rows: all.slice((page - 1) * OVERVIEW_PAGE, page * OVERVIEW_PAGE), total: all.length, page, size: OVERVIEW_PAGE };
  }
  const total = (
    db.$client.prepare("SELECT count(*) AS n FROM campaign_items WHERE campaign_id = ? AND attention IS NULL").get(campaignId) as {
      n: number;
    }
  ).n;
  const items = db.$client.prepare(`${select} LIMIT ? OFFSET ?`).all(campaignId, OVERVIEW_PAGE, (page - 1) * OVERVIEW_PAGE) as Item[];
  return { rows: rowsFor(db, campaignId, items), total, page, size: OVERVIEW_PAGE };
}
