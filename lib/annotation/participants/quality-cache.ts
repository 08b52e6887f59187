/**
 * The participants table (participants/quality.ts) is never computed inside a request, as the agreement
 * report (../agreement-cache.ts): pages read the last table of a campaign from
 * `participant_quality_reports`; when it is older than the campaign's labels and participants (its key:
 * `campaigns.agreement_version`, bumped by every label, skip and exclusion, and
 * `campaigns.participants_version`, bumped when someone joins or finishes) they ask this process's
 * refresher for a new one and show the old one with its age meanwhile. The refresher reads the labels in
 * pages of PAGE_ROWS, yielding between pages so requests keep being served, and rests between two runs of
 * one campaign so a stream of submits cannot keep a core busy.
 */
import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { campaigns, participantQualityReports, participants } from "@/db/schema";
import { campaignRefresher } from "../campaign-refresher";
import { crowdSettingsOf } from "./settings";
import { addToTally, doneLabels, newTally, qualityOf, type ParticipantQuality, type Tally } from "./quality";

/** Bumped when the table's shape changes: older stored tables then count as stale. */
export const QUALITY_FORMAT = 1;
const PAGE_ROWS = 2000;

export interface QualitySnapshot {
  rows: ParticipantQuality[] | null;
  computedAt: number | null;
  ageMs: number | null;
  current: boolean;
  refreshing: boolean;
  error: string | null;
}

/** What the table is computed from; O(1) (the campaign's row by primary key). */
export function qualityKey(db: Db, campaignId: number): string | null {
  const c = db
    .select({ v: campaigns.agreementVersion, p: campaigns.participantsVersion })
    .from(campaigns)
    .where(eq(campaigns.id, campaignId))
    .get();
  return c ? `${QUALITY_FORMAT}:${c.v}:${c.p}` : null;
}

/** The campaign's last table and whether it is current; asks for a new one when it is not. Never computes. */
export function qualitySnapshot(db: Db, campaignId: number): QualitySnapshot {
  const key = qualityKey(db, campaignId);
  const row = db.select().from(participantQualityReports).where(eq(participantQualityReports.campaignId, campaignId)).get();
  const current = row !== undefined && row.key === key;
  const error = refresher.failure(db, campaignId, key);
  if (!current && key !== null && !error) requestQuality(db, campaignId);
  return {
    rows: row ? (JSON.parse(row.report) as ParticipantQuality[]) : null,
    computedAt: row?.computedAt ?? null,
    ageMs: row ? Date.now() - row.computedAt : null,
    current,
    refreshing: refresher.busy(db, campaignId),
    error,
  };
}

const yieldNow = () => new Promise<void>((r) => setImmediate(r));

/** Computes a campaign's table now, a page of labels at a time, and stores it (the refresher; tests call it). */
export async function computeQuality(db: Db, campaignId: number, pageRows = PAGE_ROWS): Promise<ParticipantQuality[] | null> {
  const key = qualityKey(db, campaignId);
  const c = db.select({ crowd: campaigns.crowd }).from(campaigns).where(eq(campaigns.id, campaignId)).get();
  if (key === null || !c) return null;
  const t0 = performance.now();
  const minMs = crowdSettingsOf(c.crowd).minSeconds * 1000;
  // Participants first, with the key: someone joining meanwhile bumps the key, so the stored table is stale, not wrong.
  const people = db.select().from(participants).where(eq(participants.campaignId, campaignId)).all();
  const tallies = new Map<number, Tally>();
  for (let after = 0; ;) {
    const page = doneLabels(db, campaignId, undefined, { afterLabelId: after, limit: pageRows });
    for (const r of page) {
      let t = tallies.get(r.annotatorId);
      if (!t) tallies.set(r.annotatorId, (t = newTally()));
      addToTally(t, r);
    }
    if (page.length < pageRows) break;
    after = page[page.length - 1].labelId;
    await yieldNow();
  }
  const rows = people.map((p) => qualityOf(p, tallies.get(p.userId) ?? newTally(), minMs));
  const ms = Math.round(performance.now() - t0);
  const computedAt = Date.now();
  const report = JSON.stringify(rows);
  try {
    db.insert(participantQualityReports)
      .values({ campaignId, key, computedAt, ms, report })
      .onConflictDoUpdate({ target: participantQualityReports.campaignId, set: { key, computedAt, ms, report } })
      .run();
  } catch (e) {
    // The campaign was deleted meanwhile: nothing to keep.
    if (qualityKey(db, campaignId) !== null) throw e;
  }
  return rows;
}

const refresher = campaignRefresher({ slot: "__palQuality", what: "participants table", keyOf: qualityKey, compute: computeQuality });

export const requestQuality = (db: Db, campaignId: number): void => refresher.request(db, campaignId);

/** Waits until the refresher is idle (tests). */
export const qualityIdle = (db: Db, timeoutMs?: number): Promise<void> => refresher.idle(db, timeoutMs);
