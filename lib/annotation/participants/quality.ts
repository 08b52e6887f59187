/**
 * Quality per participant: gold accuracy (their labels on gold items against the known answers),
 * median seconds on an item (time measured by the page), answers faster than the campaign's minimum.
 * Read from the campaign's done assignments in one pass; a page shows it, the finish step and the
 * export use it.
 */
import { and, eq, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { assignments, campaignItems, campaigns, labels, participants } from "@/db/schema";
import { ConflictError, InvalidInputError, NotFoundError } from "@/lib/errors";
import { crowdSettingsOf } from "./settings";

export interface DoneLabelRow {
  assignmentId: number;
  annotatorId: number;
  itemId: number;
  msSpent: number;
  gold: Record<string, string> | null;
  dimension: string;
  value: string;
}

function doneLabels(db: Db, campaignId: number, userId?: number): DoneLabelRow[] {
  return db
    .select({
      assignmentId: assignments.id,
      annotatorId: assignments.annotatorId,
      itemId: assignments.itemId,
      msSpent: assignments.msSpent,
      gold: campaignItems.gold,
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
      ),
    )
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

export function participantQuality(db: Db, campaignId: number): ParticipantQuality[] {
  const c = db.select({ crowd: campaigns.crowd }).from(campaigns).where(eq(campaigns.id, campaignId)).get();
  if (!c) throw new NotFoundError(`no campaign with id ${campaignId}`);
  const minMs = crowdSettingsOf(c.crowd).minSeconds * 1000;
  const rows = doneLabels(db, campaignId);
  const people = db.select().from(participants).where(eq(participants.campaignId, campaignId)).all();
  return people.map((p) => {
    const mine = rows.filter((r) => r.annotatorId === p.userId);
    const perItem = new Map<number, number>();
    let checked = 0;
    let correct = 0;
    for (const r of mine) {
      perItem.set(r.assignmentId, r.msSpent);
      const g = goldResult(r.gold, r.dimension, r.value);
      if (g !== null) {
        checked++;
        if (g) correct++;
      }
    }
    const ms = [...perItem.values()];
    return {
      participantId: p.id,
      userId: p.userId,
      code: p.code,
      prolificPid: p.prolificPid,
      status: p.status,
      excluded: p.excluded,
      excludedReason: p.excludedReason,
      items: perItem.size,
      goldChecked: checked,
      goldCorrect: correct,
      goldAccuracy: checked ? correct / checked : null,
      medianSeconds: ms.length ? median(ms)! / 1000 : null,
      tooFast: ms.filter((x) => x < minMs).length,
      joinedAt: p.createdAt,
    };
  });
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
        const results = mine.map((r) => goldResult(r.gold, r.dimension, r.value)).filter((g): g is boolean => g !== null);
        const accuracy = results.length ? results.filter(Boolean).length / results.length : null;
        status = accuracy !== null && accuracy < s.minGoldAccuracy ? "screened-out" : "completed";
        t.update(participants).set({ status, finishedAt: Date.now() }).where(eq(participants.id, p.id)).run();
      }
      return { status, code: status === "completed" ? s.completionCode : s.screenoutCode };
    },
    { behavior: "immediate" },
  );
}
