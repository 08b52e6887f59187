/**
 * The agreement report is never computed inside a request (docs/annotation.md, "Agreement in the
 * background"). Pages and the export read the last report of a campaign from `agreement_reports`; when
 * it is older than the campaign's labels (its key differs: `campaigns.agreement_version`, bumped by
 * triggers on every label, skip, adjudication and judge label, with the tie rule and k) they ask this
 * process's refresher for a new one and show the old one with its age meanwhile. The refresher computes
 * one campaign at a time in slices of a few milliseconds (lib/agreement/steps.ts), so requests keep
 * being served, and rests between two runs of the same campaign so a stream of submits cannot keep a
 * core busy.
 */
import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { agreementReports, campaigns } from "@/db/schema";
import { runStepsAsync } from "@/lib/agreement";
import { campaignAgreementSteps, type CampaignAgreement } from "./agreement";
import { campaignRefresher } from "./campaign-refresher";

/** Bumped when the report's shape or its statistics change: older stored reports then count as stale. */
export const REPORT_FORMAT = 5;
/** Bootstrap resamples of the served report. */
export const REPORT_ITERATIONS = 1000;

export interface AgreementSnapshot {
  report: CampaignAgreement | null;
  computedAt: number | null;
  /** Milliseconds since it was computed, at the time of this read (null: none yet). */
  ageMs: number | null;
  /** How long the stored report took to compute, ms. */
  ms: number | null;
  /** The stored report reflects the campaign's current labels. */
  current: boolean;
  /** A new report is queued or being computed. */
  refreshing: boolean;
  /** Why the last computation failed, when it did for the current labels. */
  error: string | null;
}

// Parsed once per computation and kept, per database and process (on globalThis: Next's dev reloading).
type Parsed = Map<number, { computedAt: number; report: CampaignAgreement }>;
const g = globalThis as unknown as { __palAgreementParsed?: WeakMap<Db, Parsed> };
function parsedOf(db: Db): Parsed {
  const all = (g.__palAgreementParsed ??= new WeakMap());
  let p = all.get(db);
  if (!p) all.set(db, (p = new Map()));
  return p;
}

/** What the report is computed from; O(1) (the campaign's row by primary key). */
export function agreementKey(db: Db, campaignId: number): string | null {
  const c = db
    .select({ v: campaigns.agreementVersion, tie: campaigns.tieRule, k: campaigns.perItem })
    .from(campaigns)
    .where(eq(campaigns.id, campaignId))
    .get();
  return c ? `${REPORT_FORMAT}:${c.v}:${c.tie}:${c.k}` : null;
}

/** The stored report (parsed once per computation and kept), or null. */
function stored(db: Db, campaignId: number): { key: string; computedAt: number; ms: number; report: CampaignAgreement } | null {
  const row = db
    .select({ key: agreementReports.key, computedAt: agreementReports.computedAt, ms: agreementReports.ms })
    .from(agreementReports)
    .where(eq(agreementReports.campaignId, campaignId))
    .get();
  if (!row) return null;
  const parsed = parsedOf(db);
  let p = parsed.get(campaignId);
  if (!p || p.computedAt !== row.computedAt) {
    const text = db
      .select({ report: agreementReports.report })
      .from(agreementReports)
      .where(eq(agreementReports.campaignId, campaignId))
      .get();
    if (!text) return null;
    p = { computedAt: row.computedAt, report: JSON.parse(text.report) as CampaignAgreement };
    parsed.set(campaignId, p);
  }
  return { ...row, report: p.report };
}

/**
 * The campaign's last report and whether it is current; asks for a new one when it is not (unless the
 * computation failed for these very labels). Never computes: cheap enough for any page.
 */
export function agreementSnapshot(db: Db, campaignId: number): AgreementSnapshot {
  const key = agreementKey(db, campaignId);
  const row = stored(db, campaignId);
  const current = row !== null && row.key === key;
  const error = refresher.failure(db, campaignId, key);
  if (!current && key !== null && !error) requestAgreement(db, campaignId);
  return {
    report: row?.report ?? null,
    computedAt: row?.computedAt ?? null,
    ageMs: row ? Date.now() - row.computedAt : null,
    ms: row?.ms ?? null,
    current,
    refreshing: refresher.busy(db, campaignId),
    error,
  };
}

/** Computes a campaign's report now, in slices, and stores it (the refresher; tests and benches call it directly). */
export async function computeAgreement(db: Db, campaignId: number): Promise<CampaignAgreement | null> {
  const key = agreementKey(db, campaignId);
  if (key === null) return null;
  const t0 = performance.now();
  // The labels are read in the first slice, synchronously right after the key: the key names what was read.
  const report = await runStepsAsync(campaignAgreementSteps(db, campaignId, { bootstrap: REPORT_ITERATIONS, seed: 1 }));
  const ms = Math.round(performance.now() - t0);
  storeAgreement(db, campaignId, key, report, ms);
  return report;
}

/** Writes a computed report into the cache (also used by the CLI, which computes in one go). */
export function storeAgreement(db: Db, campaignId: number, key: string, report: CampaignAgreement, ms: number): void {
  const computedAt = Date.now();
  const row = { campaignId, key, computedAt, ms, report: JSON.stringify(report) };
  try {
    db.insert(agreementReports)
      .values(row)
      .onConflictDoUpdate({ target: agreementReports.campaignId, set: { key, computedAt, ms, report: row.report } })
      .run();
  } catch (e) {
    // The campaign was deleted while its report was computed: nothing to keep.
    if (agreementKey(db, campaignId) !== null) throw e;
    return;
  }
  parsedOf(db).set(campaignId, { computedAt, report });
}

const refresher = campaignRefresher({ slot: "__palAgreement", what: "agreement report", keyOf: agreementKey, compute: computeAgreement });

/** Queues a campaign for the refresher of this process. */
export const requestAgreement = (db: Db, campaignId: number): void => refresher.request(db, campaignId);

/** Waits until the refresher is idle (tests). */
export const agreementIdle = (db: Db, timeoutMs?: number): Promise<void> => refresher.idle(db, timeoutMs);
