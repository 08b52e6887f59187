/** Every item of a campaign with its human labels and judge verdicts per dimension, and whether they disagree. */
import type { Db } from "@/db/client";
import { campaignDimensionsOf } from "./campaigns";
import { campaignLabels, judgeLabelsOf, judgeRunsOf } from "./human-labels";

export interface ItemOverview {
  itemId: number;
  externalId: string;
  title: string;
  cells: Record<string, { humans: string[]; judges: string[]; adjudicated: string | null }>;
  /** Some dimension has two different labels among the humans and judges. */
  disagree: boolean;
}

export function itemsOverview(db: Db, campaignId: number, opts: { onlyDisagreements?: boolean } = {}): ItemOverview[] {
  const dims = campaignDimensionsOf(db, campaignId);
  const { items } = campaignLabels(db, campaignId);
  const judges = judgeRunsOf(db, campaignId).map((r) => judgeLabelsOf(db, r.id));
  const rows = items.map((it) => {
    const cells: ItemOverview["cells"] = {};
    let disagree = false;
    for (const d of dims) {
      const humans = Object.values(it.human[d.key] ?? {});
      const js = judges.map((j) => j.get(it.itemId)?.[d.key]?.value).filter((v): v is string => !!v);
      if (new Set([...humans, ...js]).size > 1) disagree = true;
      cells[d.key] = { humans, judges: js, adjudicated: it.adjudicated[d.key] ?? null };
    }
    return { itemId: it.itemId, externalId: it.externalId, title: it.title, cells, disagree };
  });
  return opts.onlyDisagreements ? rows.filter((r) => r.disagree) : rows;
}
