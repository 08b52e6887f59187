/**
 * Quality per participant: gold accuracy (their labels on gold items against the known answers),
 * attention checks passed and failed (a check passes when every dimension gets its expected answer),
 * median seconds on an item (time measured by the page), answers faster than the campaign's minimum.
 * Read from the campaign's done assignments in one pass; the background table (quality-cache.ts), the
 * finish step and the export use it.
 */
import { and, eq, gt, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { assignments, campaignItems, campaigns, labels, participants } from "@/db/schema";
import { ConflictError, InvalidInputError, NotFoundError } from "@/lib/errors";
import { crowdSettingsOf } from "./settings";

export interface DoneLabelRow {
  labelId: number;
  assignmentId: number;
  annotatorId: number;
  itemId: number;
  msSpent: number;
  gold: Record<string, string> | null;
  attention: "identical-pair" | "broken-reply" | null;
  dimension: string;
  value: string;
}

export function doneLabels(db: Db, campaignId: number, userId?: number, page?: { afterLabelId: number; limit: number }): DoneLabelRow[] {
  return db
    .select({
      labelId: labels.id,
      assignmentId: assignments.id,
      annotatorId: assignments.annotatorId,
      itemId: assignments.itemId,
      msSpent: assignments.msSpent,
      gold: campaignItems.gold,
      attention: campaignItems.attention,
      dimension: labels.dimension,
      value: labels.value,
    })
    .from(labels)
    .innerJoin(assignments, eq(assignments.id, labels.assignmentId))
    .innerJoin(campaignItems, eq(campaignItems.id, assignments.itemId))
    .where(
      and(
        eq(assignments.campaignId, campaignId),
        eq(assignments.status, "done"),
        userId === undefined ? undefined : eq(assignments.annotatorId, userId),
        page ? gt(labels.id, page.afterLabelId) : undefined,
      ),
    )
    .orderBy(labels.id)
    .limit(page?.limit ?? -1)
    .all();
}

/** Whether one label matches its gold answer (null: the item is no gold item or has no answer for this dimension). */
export function goldResult(gold: Record<string, string> | null, dimension: string, value: string): boolean | null {
  const want = gold?.[dimension];
  return want === undefined ? null : want === value;
}

export interface ParticipantQuality {
  participantId: number;
  userId: number;
  code: string;
  prolificPid: string;
  status: "active" | "completed" | "screened-out";
  excluded: boolean;
  excludedReason: string | null;
  items: number;
  goldChecked: number;
  goldCorrect: number;
  /** Share of gold answers right (null: no gold item answered yet). */
  goldAccuracy: number | null;
  medianSeconds: number | null;
  /** Attention checks answered, and how many of them got a wrong answer on some dimension. */
  attentionChecked: number;
  attentionFailed: number;
  /** Items answered faster than the campaign's minimum seconds. */
  tooFast: number;
  joinedAt: number;
}

function median(xs: number[]): number | null {
  if (!xs.length) return null;
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/** What one participant's labels add up to (filled label by label, so the table can be read in slices). */
export interface Tally {
  ms: Map<number, number>;
  goldChecked: number;
  goldCorrect: number;
  /** Attention assignment → whether every answered dimension matched so far. */
  attention: Map<number, boolean>;
}

export const newTally = (): Tally => ({ ms: new Map(), goldChecked: 0, goldCorrect: 0, attention: new Map() });

export function addToTally(t: Tally, r: DoneLabelRow): void {
  t.ms.set(r.assignmentId, r.msSpent);
  const g = goldResult(r.gold, r.dimension, r.value);
  if (g === null) return;
  if (r.attention) t.attention.set(r.assignmentId, (t.attention.get(r.assignmentId) ?? true) && g);
  else {
    t.goldChecked++;
    if (g) t.goldCorrect++;
  }
}

type ParticipantRowLite = typeof participants.$inferSelect;

export function qualityOf(p: ParticipantRowLite, t: Tally, minMs: number): ParticipantQuality {
  const ms = [...t.ms.values()];
  const att = [...t.attention.values()];
  return {
    participantId: p.id,
    userId: p.userId,
    code: p.code,
    prolificPid: p.prolificPid,
    status: p.status,
    excluded: p.excluded,
    excludedReason: p.excludedReason,
    items: t.ms.size,
    goldChecked: t.goldChecked,
    goldCorrect: t.goldCorrect,
    goldAccuracy: t.goldChecked ? t.goldCorrect / t.goldChecked : null,
    attentionChecked: att.length,
    attentionFailed: att.filter((ok) => !ok).length,
    medianSeconds: ms.length ? median(ms)! / 1000 : null,
    tooFast: ms.filter((x) => x < minMs).length,
    joinedAt: p.createdAt,
  };
}

/** The whole table in one pass (the CLI, tests; pages read the background copy: quality-cache.ts). */
export function participantQuality(db: Db, campaignId: number): ParticipantQuality[] {
  const c = db.select({ crowd: campaigns.crowd }).from(campaigns).where(eq(campaigns.id, campaignId)).get();
  if (!c) throw new NotFoundError(`no campaign with id ${campaignId}`);
  const minMs = crowdSettingsOf(c.crowd).minSeconds * 1000;
  const tallies = new Map<number, Tally>();
  for (const r of doneLabels(db, campaignId)) {
    let t = tallies.get(r.annotatorId);
    if (!t) tallies.set(r.annotatorId, (t = newTally()));
    addToTally(t, r);
  }
  const people = db.select().from(participants).where(eq(participants.campaignId, campaignId)).all();
  return people.map((p) => qualityOf(p, tallies.get(p.userId) ?? newTally(), minMs));
}

/**
 * Excludes (or re-includes) a participant: their labels stay, marked in the export, and drop out of
 * agreement. Bumps the campaign's agreement version so the cached report is recomputed.
 */
export function setParticipantExcluded(db: Db, campaignId: number, participantId: number, excluded: boolean, reason?: string | null): void {
  if (typeof excluded !== "boolean") throw new InvalidInputError("excluded: expected true or false");
  db.transaction((tx) => {
    const p = tx
      .select({ id: participants.id })
      .from(participants)
      .where(and(eq(participants.id, participantId), eq(participants.campaignId, campaignId)))
      .get();
    if (!p) throw new NotFoundError(`no participant ${participantId} in campaign ${campaignId}`);
    const why = excluded ? (reason ?? "").trim().slice(0, 500) || null : null;
    tx.update(participants).set({ excluded, excludedReason: why }).where(eq(participants.id, p.id)).run();
    tx.update(campaigns)
      .set({ agreementVersion: sql`${campaigns.agreementVersion} + 1` })
      .where(eq(campaigns.id, campaignId))
      .run();
  });
}

/**
 * A participant out of work (quota reached or nothing left): completed, or screened out when their gold
 * accuracy is below the campaign's minimum. Returns the code to show; idempotent once decided.
 */
export function finishParticipant(db: Db, userId: number): { status: "completed" | "screened-out"; code: string | null } {
  return db.transaction(
    (tx) => {
      const t = tx as unknown as Db;
      const p = t.select().from(participants).where(eq(participants.userId, userId)).get();
      if (!p) throw new NotFoundError("you have not joined a study");
      const c = t.select({ crowd: campaigns.crowd }).from(campaigns).where(eq(campaigns.id, p.campaignId)).get()!;
      const s = crowdSettingsOf(c.crowd);
      let status = p.status;
      if (status === "active") {
        const mine = doneLabels(t, p.campaignId, userId);
        if (mine.length === 0) throw new ConflictError("nothing labelled yet");
        const tally = newTally();
        for (const r of mine) addToTally(tally, r);
        const q = qualityOf(p, tally, 0);
        // The checks of issue 43.3: gold accuracy below the minimum, or more failed attention checks than allowed.
        const failsGold = q.goldAccuracy !== null && q.goldAccuracy < s.minGoldAccuracy;
        status = failsGold || q.attentionFailed > s.maxAttentionFails ? "screened-out" : "completed";
        t.update(participants).set({ status, finishedAt: Date.now() }).where(eq(participants.id, p.id)).run();
        bumpParticipantsVersion(t, p.campaignId);
      }
      return { status, code: status === "completed" ? s.completionCode : s.screenoutCode };
    },
    { behavior: "immediate" },
  );
}

/** A participant joined or finished: the cached participants table is stale (quality-cache.ts). */
export function bumpParticipantsVersion(db: Db, campaignId: number): void {
  db.update(campaigns)
    .set({ participantsVersion: sql`${campaigns.participantsVersion} + 1` })
    .where(eq(campaigns.id, campaignId))
    .run();
}
