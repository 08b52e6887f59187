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

type State = {
  queue: Set<number>;
  running: number | null;
  last: Map<number, { at: number; ms: number }>;
  failed: Map<number, { key: string; error: string }>;
  timer: ReturnType<typeof setTimeout> | null;
};
// One per database and process, on globalThis so Next's module reloading in dev does not start a second one.
const g = globalThis as unknown as { __palQuality?: WeakMap<Db, State> };
function state(db: Db): State {
  const all = (g.__palQuality ??= new WeakMap());
  let s = all.get(db);
  if (!s) all.set(db, (s = { queue: new Set(), running: null, last: new Map(), failed: new Map(), timer: null }));
  return s;
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
  const s = state(db);
  const failed = s.failed.get(campaignId);
  const error = failed && failed.key === key ? failed.error : null;
  if (!current && key !== null && !error) requestQuality(db, campaignId);
  return {
    rows: row ? (JSON.parse(row.report) as ParticipantQuality[]) : null,
    computedAt: row?.computedAt ?? null,
    ageMs: row ? Date.now() - row.computedAt : null,
    current,
    refreshing: s.queue.has(campaignId) || s.running === campaignId,
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

export function requestQuality(db: Db, campaignId: number): void {
  state(db).queue.add(campaignId);
  schedule(db, 0);
}

/** Rest after a campaign's computation before computing it again: twice its duration, at least 250 ms. */
function restOf(s: State, campaignId: number): number {
  const last = s.last.get(campaignId);
  return last ? Math.max(0, last.at + Math.max(250, 2 * last.ms) - Date.now()) : 0;
}

function schedule(db: Db, ms: number) {
  const s = state(db);
  if (s.running !== null || s.timer) return;
  s.timer = setTimeout(() => {
    s.timer = null;
    void drain(db);
  }, ms);
  s.timer.unref?.();
}

async function drain(db: Db): Promise<void> {
  const s = state(db);
  if (s.running !== null) return;
  const ready = [...s.queue].map((id) => ({ id, wait: restOf(s, id) })).sort((a, b) => a.wait - b.wait)[0];
  if (!ready) return;
  if (ready.wait > 0) return schedule(db, ready.wait);
  s.queue.delete(ready.id);
  s.running = ready.id;
  const key = qualityKey(db, ready.id);
  const t0 = Date.now();
  try {
    if (key !== null) await computeQuality(db, ready.id);
    s.failed.delete(ready.id);
  } catch (e) {
    const error = e instanceof Error ? e.message : String(e);
    console.error(`participants table of campaign ${ready.id} failed:`, e);
    if (key !== null) s.failed.set(ready.id, { key, error });
  } finally {
    s.last.set(ready.id, { at: Date.now(), ms: Date.now() - t0 });
    s.running = null;
  }
  if (s.queue.size) schedule(db, 0);
}

/** Waits until the refresher is idle (tests). */
export async function qualityIdle(db: Db, timeoutMs = 60_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  const s = state(db);
  while (s.queue.size || s.running !== null) {
    if (Date.now() > until) throw new Error("the participants table refresher did not go idle");
    await new Promise((r) => setTimeout(r, 20));
  }
}
