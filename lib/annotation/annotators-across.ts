/**
 * Each annotator across the campaigns the PI is looking at (/agreement): how much they labelled and
 * skipped, and per campaign and dimension their Cohen's kappa with the others' majority and whether it
 * drifted. Built from the campaigns' cached reports (agreement-annotators.ts computes each campaign's
 * part in the background): no computation here beyond regrouping what the reports hold.
 */
import type { AnnotatorStats } from "./agreement-annotators";

export interface AnnotatorCampaignAgreement {
  campaignId: number;
  campaign: string;
  dimension: string;
  kappa: number | null;
  reason?: string;
  n: number;
  driftFlagged: boolean;
}

export interface AnnotatorAcross {
  annotator: string;
  campaigns: number;
  labels: number;
  skipped: number;
  /** Every (campaign, dimension) the annotator has a kappa with the others for, in the campaigns' order. */
  agreement: AnnotatorCampaignAgreement[];
  /** How many of those drifted (flagged: enough items per half, a fall of DRIFT_FLAG with its interval below zero). */
  driftFlags: number;
}

export type CampaignAnnotators = {
  id: number;
  name: string;
  dimensions: Array<{ key: string; title: string }>;
  annotators: readonly AnnotatorStats[];
};

export function annotatorsAcross(campaigns: readonly CampaignAnnotators[]): AnnotatorAcross[] {
  const by = new Map<string, AnnotatorAcross>();
  for (const c of campaigns)
    for (const a of c.annotators) {
      let row = by.get(a.annotator);
      if (!row) by.set(a.annotator, (row = { annotator: a.annotator, campaigns: 0, labels: 0, skipped: 0, agreement: [], driftFlags: 0 }));
      row.campaigns++;
      row.labels += a.labels;
      row.skipped += a.skipped;
      for (const d of c.dimensions) {
        const w = a.agreement[d.key];
        if (!w) continue;
        const driftFlagged = a.drift[d.key]?.flagged === true;
        if (driftFlagged) row.driftFlags++;
        row.agreement.push({
          campaignId: c.id,
          campaign: c.name,
          dimension: d.title,
          kappa: w.kappa,
          reason: w.reason,
          n: w.n,
          driftFlagged,
        });
      }
    }
  return [...by.values()].sort((x, y) => x.annotator.localeCompare(y.annotator));
}
