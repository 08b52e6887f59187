/**
 * The PI's adjudication queue (issue 43.4): items ordered by disagreement, each human label with its
 * annotator (a participant's pseudonymous code), seconds on task and flags, and the decision recorded with a
 * reason. The order comes from the background agreement report (./agreement-cache.ts: its
 * `disagreementQueue`), never computed in a request; a page reads only its own items, by primary key and the
 * assignments' item index. A decision is the item's final label: agreement's majority, the export's
 * outcome (./item-outcomes.ts) and Table 11 "by adjudication" read it.
 */
import { and, asc, eq, inArray, isNotNull } from "drizzle-orm";
import type { Db } from "@/db/client";
import { adjudications, assignments, campaignItems, campaignOutputs, campaignSystems, labels, participants, users } from "@/db/schema";
import { pageWindow } from "@/lib/paging";
import { agreementSnapshot } from "./agreement-cache";
import { campaignDimensionsOf, getCampaign } from "./campaigns";
import { crowdSettingsOf } from "./participants/settings";

export { ADJUDICATION_REASONS, REASON_KEYS, reasonLabel, checkReason, type AdjudicationReason } from "./adjudication-reasons";

export const QUEUE_PAGE = 10;

export interface QueueLabel {
  annotator: string;
  value: string;
  shownValue: string;
  swapped: boolean;
  comment: string | null;
  seconds: number;
  guidelineVersion: number;
  /** Faster than the campaign's minimum seconds (crowd participants only). */
  tooFast: boolean;
  excluded: boolean;
  /** The annotator's gold answers in this campaign: right of checked (null: none checked). */
  gold: { correct: number; checked: number } | null;
}

export interface QueueItem {
  itemId: number;
  externalId: string;
  title: string;
  score: number;
  content: Record<string, unknown>;
  outputs: Array<{ slot: "A" | "B"; system: string; output: unknown }>;
  /** dimension → the human labels on it. */
  labels: Record<string, QueueLabel[]>;
  /** dimension → the recorded decision. */
  decisions: Record<string, { value: string; reason: string | null; note: string | null; by: string; at: number }>;
}

export interface AdjudicationQueue {
  items: QueueItem[];
  total: number;
  page: number;
  pageSize: number;
  /** When the order was computed, and whether labels came in since (the page says so; a new order is on its way). */
  computedAt: number | null;
  /** Milliseconds since then, at this read. */
  ageMs: number | null;
  current: boolean;
  /** No report with a queue yet: it is being computed. */
  pending: boolean;
}

export function adjudicationQueue(db: Db, campaignId: number, page?: number): AdjudicationQueue {
  const c = getCampaign(db, campaignId);
  const snap = agreementSnapshot(db, campaignId);
  const order = snap.report?.disagreementQueue;
  const all = order ?? [];
  const last = Math.max(1, Math.ceil(all.length / QUEUE_PAGE));
  const w = pageWindow(Math.min(page ?? 1, last), QUEUE_PAGE, { maxSize: QUEUE_PAGE });
  const slice = all.slice(w.offset, w.offset + QUEUE_PAGE);
  const items = queueItems(db, campaignId, crowdSettingsOf(c.crowd).minSeconds * 1000, slice);
  return {
    items,
    total: all.length,
    page: w.page,
    pageSize: QUEUE_PAGE,
    computedAt: snap.computedAt,
    ageMs: snap.ageMs,
    current: snap.current,
    pending: order === undefined,
  };
}

function queueItems(db: Db, campaignId: number, minMs: number, slice: Array<{ itemId: number; score: number }>): QueueItem[] {
  const ids = slice.map((s) => s.itemId);
  if (!ids.length) return [];
  const rows = db
    .select()
    .from(campaignItems)
    .where(and(eq(campaignItems.campaignId, campaignId), inArray(campaignItems.id, ids)))
    .all();
  const byId = new Map(rows.map((r) => [r.id, r]));
  const outputs = db
    .select({ itemId: campaignOutputs.itemId, slot: campaignSystems.slot, system: campaignSystems.name, output: campaignOutputs.output })
    .from(campaignOutputs)
    .innerJoin(campaignSystems, eq(campaignSystems.id, campaignOutputs.systemId))
    .where(inArray(campaignOutputs.itemId, ids))
    .orderBy(asc(campaignSystems.slot))
    .all();
  const human = db
    .select({
      itemId: assignments.itemId,
      annotatorId: assignments.annotatorId,
      code: participants.code,
      email: users.email,
      excluded: participants.excluded,
      msSpent: assignments.msSpent,
      dimension: labels.dimension,
      value: labels.value,
      shownValue: labels.shownValue,
      swapped: labels.swapped,
      comment: labels.comment,
      guidelineVersion: labels.guidelineVersion,
    })
    .from(assignments)
    .innerJoin(labels, eq(labels.assignmentId, assignments.id))
    .innerJoin(users, eq(users.id, assignments.annotatorId))
    .leftJoin(participants, eq(participants.userId, assignments.annotatorId))
    .where(and(inArray(assignments.itemId, ids), eq(assignments.status, "done")))
    .orderBy(asc(users.email))
    .all();
  const gold = goldOf(db, campaignId, [...new Set(human.map((h) => h.annotatorId))]);
  const decided = db
    .select({
      itemId: adjudications.itemId,
      dimension: adjudications.dimension,
      value: adjudications.value,
      reason: adjudications.reason,
      note: adjudications.note,
      by: users.email,
      at: adjudications.createdAt,
    })
    .from(adjudications)
    .innerJoin(users, eq(users.id, adjudications.adjudicatorId))
    .where(inArray(adjudications.itemId, ids))
    .all();
  return slice.flatMap(({ itemId, score }) => {
    const it = byId.get(itemId);
    // An item deleted since the report was computed is left out.
    if (!it) return [];
    const labelsOf: QueueItem["labels"] = {};
    for (const h of human.filter((x) => x.itemId === itemId))
      (labelsOf[h.dimension] ??= []).push({
        annotator: h.code ?? h.email,
        value: h.value,
        shownValue: h.shownValue,
        swapped: h.swapped,
        comment: h.comment,
        seconds: Math.round(h.msSpent / 100) / 10,
        guidelineVersion: h.guidelineVersion,
        tooFast: h.code !== null && h.msSpent < minMs,
        excluded: Boolean(h.excluded),
        gold: gold.get(h.annotatorId) ?? null,
      });
    const decisions: QueueItem["decisions"] = {};
    for (const d of decided.filter((x) => x.itemId === itemId))
      decisions[d.dimension] = { value: d.value, reason: d.reason, note: d.note, by: d.by, at: d.at };
    return [
      {
        itemId,
        externalId: it.externalId,
        title: it.title ?? it.externalId,
        score,
        content: it.content,
        outputs: outputs.filter((o) => o.itemId === itemId).map(({ slot, system, output }) => ({ slot, system, output })),
        labels: labelsOf,
        decisions,
      },
    ];
  });
}

/** Gold answers right and checked, per annotator, among the page's annotators only (their assignments' index). */
function goldOf(db: Db, campaignId: number, annotatorIds: number[]): Map<number, { correct: number; checked: number }> {
  const out = new Map<number, { correct: number; checked: number }>();
  if (!annotatorIds.length) return out;
  const rows = db
    .select({ annotatorId: assignments.annotatorId, gold: campaignItems.gold, dimension: labels.dimension, value: labels.value })
    .from(assignments)
    .innerJoin(campaignItems, eq(campaignItems.id, assignments.itemId))
    .innerJoin(labels, eq(labels.assignmentId, assignments.id))
    .where(
      and(
        inArray(assignments.annotatorId, annotatorIds),
        eq(assignments.campaignId, campaignId),
        eq(assignments.status, "done"),
        isNotNull(campaignItems.gold),
      ),
    )
    .all();
  for (const r of rows) {
    const want = r.gold?.[r.dimension];
    if (want === undefined) continue;
    const g = out.get(r.annotatorId) ?? { correct: 0, checked: 0 };
    g.checked++;
    if (want === r.value) g.correct++;
    out.set(r.annotatorId, g);
  }
  return out;
}

/** The dimensions' categories, for the decision forms. */
export function adjudicationDimensions(db: Db, campaignId: number) {
  return campaignDimensionsOf(db, campaignId);
}
