/** The researcher's side-by-side view of one item: unblinded outputs, every human label, every judge verdict, adjudications. */
import { and, asc, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import {
  adjudications,
  assignments,
  campaignItems,
  campaignOutputs,
  campaignSystems,
  experiments,
  jobs,
  labelHistory,
  labels,
  users,
} from "@/db/schema";
import { InvalidInputError, NotFoundError } from "@/lib/errors";
import { campaignDimensionsOf, getCampaign } from "./campaigns";
import { judgeLabelsOf, judgeRunsOf } from "./human-labels";

/** The campaign and one of its items; not found if either is missing or the item is another campaign's. */
function campaignItem(db: Db, campaignId: number, itemId: number) {
  const campaign = getCampaign(db, campaignId);
  const item = Number.isInteger(itemId)
    ? db
        .select()
        .from(campaignItems)
        .where(and(eq(campaignItems.id, itemId), eq(campaignItems.campaignId, campaignId)))
        .get()
    : undefined;
  if (!item) throw new NotFoundError(`no item ${itemId} in campaign ${campaignId}`);
  return { campaign, item };
}

/**
 * Where an item made from an experiment came from: the experiment's compare view of that topic with the
 * two methods, and side A's job. Null for uploaded or sampled items, or once the experiment is deleted.
 */
export type ItemSource = { experimentId: number; experimentName: string; compareHref: string; jobHref: string | null };

function itemSource(db: Db, campaign: { kind: string; config: unknown }, itemKey: string): ItemSource | null {
  const cfg = (campaign.config ?? {}) as {
    experimentId?: unknown;
    methodA?: unknown;
    methodB?: unknown;
    replicate?: unknown;
    task?: unknown;
  };
  if (typeof cfg.experimentId !== "number" || typeof cfg.methodA !== "string") return null;
  const e = db.select({ id: experiments.id, name: experiments.name }).from(experiments).where(eq(experiments.id, cfg.experimentId)).get();
  if (!e) return null;
  const task = typeof cfg.task === "string" ? cfg.task : campaign.kind === "hicupid-ab" ? "hicupid" : "dialogue";
  const replicate = typeof cfg.replicate === "number" ? cfg.replicate : 0;
  const methods = [cfg.methodA, ...(typeof cfg.methodB === "string" ? [cfg.methodB] : [])];
  const q = new URLSearchParams([["task", task], ["item", itemKey], ...methods.map((m) => ["m", m]), ["run", String(replicate)]]);
  const job = db
    .select({ id: jobs.id })
    .from(jobs)
    .where(
      and(
        eq(jobs.experimentId, e.id),
        eq(jobs.task, task),
        eq(jobs.itemKey, itemKey),
        eq(jobs.method, cfg.methodA),
        eq(jobs.replicate, replicate),
      ),
    )
    .get();
  return {
    experimentId: e.id,
    experimentName: e.name,
    compareHref: `/experiments/${e.id}/compare?${q}`,
    jobHref: job ? `/experiments/${e.id}/jobs/${job.id}` : null,
  };
}

export function itemView(db: Db, campaignId: number, itemId: number) {
  const { campaign, item } = campaignItem(db, campaignId, itemId);
  const outputs = db
    .select({ slot: campaignSystems.slot, system: campaignSystems.name, output: campaignOutputs.output })
    .from(campaignOutputs)
    .innerJoin(campaignSystems, eq(campaignSystems.id, campaignOutputs.systemId))
    .where(eq(campaignOutputs.itemId, item.id))
    .orderBy(asc(campaignSystems.slot))
    .all();
  const human = db
    .select({
      labelId: labels.id,
      annotator: users.email,
      status: assignments.status,
      skipReason: assignments.skipReason,
      msSpent: assignments.msSpent,
      dimension: labels.dimension,
      value: labels.value,
      shownValue: labels.shownValue,
      swapped: labels.swapped,
      comment: labels.comment,
      edited: labels.updatedAt,
    })
    .from(assignments)
    .innerJoin(users, eq(users.id, assignments.annotatorId))
    .leftJoin(labels, eq(labels.assignmentId, assignments.id))
    .where(eq(assignments.itemId, item.id))
    .orderBy(asc(users.email))
    .all();
  const history = db
    .select({ labelId: labelHistory.labelId, value: labelHistory.value, writtenAt: labelHistory.writtenAt })
    .from(labelHistory)
    .innerJoin(labels, eq(labels.id, labelHistory.labelId))
    .innerJoin(assignments, eq(assignments.id, labels.assignmentId))
    .where(eq(assignments.itemId, item.id))
    .all();
  const judges = judgeRunsOf(db, campaignId).map((r) => ({
    id: r.id,
    name: r.name,
    model: r.model,
    labels: judgeLabelsOf(db, r.id, item.id).get(item.id) ?? {},
  }));
  const adjudicated = db.select().from(adjudications).where(eq(adjudications.itemId, item.id)).all();
  const neighbours = db
    .select({ id: campaignItems.id })
    .from(campaignItems)
    .where(eq(campaignItems.campaignId, campaignId))
    .orderBy(asc(campaignItems.position))
    .all()
    .map((r) => r.id);
  const at = neighbours.indexOf(item.id);
  return {
    campaign: { id: campaign.id, name: campaign.name, kind: campaign.kind },
    item: {
      id: item.id,
      externalId: item.externalId,
      title: item.title ?? item.externalId,
      position: item.position,
      content: item.content,
    },
    source: itemSource(db, campaign, item.externalId),
    dimensions: campaignDimensionsOf(db, campaignId),
    outputs,
    human,
    history,
    judges,
    adjudicated,
    prev: at > 0 ? neighbours[at - 1] : null,
    next: at >= 0 && at < neighbours.length - 1 ? neighbours[at + 1] : null,
  };
}

/** Records (or replaces) the adjudicated label of one item and dimension. */
export function adjudicate(
  db: Db,
  campaignId: number,
  itemId: number,
  dimension: string,
  value: string,
  note: string | null,
  userId: number,
  /** Why a decision was needed (./adjudication.ts ADJUDICATION_REASONS); null: not given. */
  reason: string | null = null,
): void {
  campaignItem(db, campaignId, itemId);
  const dim = campaignDimensionsOf(db, campaignId).find((d) => d.key === dimension);
  if (!dim) throw new InvalidInputError(`dimension: "${dimension}" is not a dimension of this campaign`);
  if (!dim.categories.some((c) => c.value === value))
    throw new InvalidInputError(`value: expected one of ${dim.categories.map((c) => c.value).join(", ")}`);
  db.insert(adjudications)
    .values({ itemId, dimension, value, reason, note: note?.trim() || null, adjudicatorId: userId })
    .onConflictDoUpdate({
      target: [adjudications.itemId, adjudications.dimension],
      // A changed decision is a new one: its time too.
      set: { value, reason, note: note?.trim() || null, adjudicatorId: userId, createdAt: Date.now() },
    })
    .run();
}
