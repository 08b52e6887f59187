/** Reads a campaign's human labels, adjudications and judge labels into per-item, per-dimension maps. */
import { and, asc, eq, isNull, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { adjudications, assignments, campaignItems, judgeLabels, judgeRuns, labels, participants, users } from "@/db/schema";

export interface ItemLabels {
  itemId: number;
  externalId: string;
  /** What researchers read (lib/annotation/item-title.ts); the external id when the item predates titles. */
  title: string;
  position: number;
  /** dimension → rater email → canonical value */
  human: Record<string, Record<string, string>>;
  adjudicated: Record<string, string>;
  /** dimension → rater email → the guidelines' version the label was given under. */
  versions: Record<string, Record<string, number>>;
}

export function campaignLabels(db: Db, campaignId: number): { items: ItemLabels[]; raters: string[] } {
  const items = db
    .select({ id: campaignItems.id, externalId: campaignItems.externalId, title: campaignItems.title, position: campaignItems.position })
    .from(campaignItems)
    // Gold items / attention checks test the participants, not the systems: not part of agreement.
    .where(and(eq(campaignItems.campaignId, campaignId), isNull(campaignItems.gold)))
    .orderBy(asc(campaignItems.position))
    .all();
  const byId = new Map<number, ItemLabels>(
    items.map((i) => [
      i.id,
      {
        itemId: i.id,
        externalId: i.externalId,
        title: i.title ?? i.externalId,
        position: i.position,
        human: {},
        adjudicated: {},
        versions: {},
      },
    ]),
  );
  const rows = db
    .select({
      itemId: assignments.itemId,
      email: users.email,
      dimension: labels.dimension,
      value: labels.value,
      version: labels.guidelineVersion,
    })
    .from(labels)
    .innerJoin(assignments, eq(assignments.id, labels.assignmentId))
    .innerJoin(users, eq(users.id, assignments.annotatorId))
    .innerJoin(campaignItems, eq(campaignItems.id, assignments.itemId))
    .where(
      and(
        eq(assignments.campaignId, campaignId),
        eq(assignments.status, "done"),
        isNull(campaignItems.gold),
        // An excluded participant's labels are kept (the export marks them) but drop out of agreement.
        sql`not exists (select 1 from ${participants} where ${participants.userId} = ${assignments.annotatorId} and ${participants.excluded} = 1)`,
      ),
    )
    .orderBy(asc(users.email))
    .all();
  const raters = new Set<string>();
  for (const r of rows) {
    const it = byId.get(r.itemId)!;
    (it.human[r.dimension] ??= {})[r.email] = r.value;
    (it.versions[r.dimension] ??= {})[r.email] = r.version;
    raters.add(r.email);
  }
  const adj = db
    .select({ itemId: adjudications.itemId, dimension: adjudications.dimension, value: adjudications.value })
    .from(adjudications)
    .innerJoin(campaignItems, eq(campaignItems.id, adjudications.itemId))
    .where(eq(campaignItems.campaignId, campaignId))
    .all();
  for (const a of adj) {
    const it = byId.get(a.itemId);
    if (it) it.adjudicated[a.dimension] = a.value;
  }
  return { items: [...byId.values()], raters: [...raters].sort() };
}

/** Whether a judge run has any verdict (one row read, not the run's stored judgments). */
export function judgeRunHasLabels(db: Db, runId: number): boolean {
  return db.$client.prepare("SELECT 1 FROM judge_labels WHERE run_id = ? LIMIT 1").get(runId) !== undefined;
}

export function judgeRunsOf(db: Db, campaignId: number) {
  return db.select().from(judgeRuns).where(eq(judgeRuns.campaignId, campaignId)).orderBy(asc(judgeRuns.id)).all();
}

/** itemId → dimension → label, for one run (and, given `itemId`, only that item's). */
export function judgeLabelsOf(
  db: Db,
  runId: number,
  itemId?: number,
): Map<number, Record<string, { value: string; judgments: unknown[] | null; analysis: string | null }>> {
  const out = new Map<number, Record<string, { value: string; judgments: unknown[] | null; analysis: string | null }>>();
  const where = and(eq(judgeLabels.runId, runId), itemId === undefined ? undefined : eq(judgeLabels.itemId, itemId));
  for (const l of db.select().from(judgeLabels).where(where).all()) {
    const m = out.get(l.itemId) ?? {};
    m[l.dimension] = { value: l.value, judgments: l.judgments, analysis: l.analysis };
    out.set(l.itemId, m);
  }
  return out;
}
