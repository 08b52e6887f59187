/**
 * Each annotator of a campaign (docs/annotation.md, "Annotators"): items labelled and skipped, the median
 * time per labelled item, and per dimension their agreement with the others (leave-one-out) and its drift
 * from the first half of their items to the second (lib/agreement/annotators.ts).
 */
import type { Db } from "@/db/client";
import { agreementWithOthers, drift, median, type Drift, type RaterItem, type Steps, type WithOthers } from "@/lib/agreement";
import type { ItemLabels } from "./human-labels";
import type { DimensionSpec } from "./kinds";

export interface AnnotatorStats {
  annotator: string;
  /** Items labelled (submitted). */
  labels: number;
  skipped: number;
  /** Median seconds spent per labelled item; null before the first. */
  medianSeconds: number | null;
  /** Per dimension key: Cohen's kappa with the others' majority, over the items they share. */
  agreement: Record<string, WithOthers>;
  drift: Record<string, Drift>;
}

/** Reads the assignments now; the steps compute one annotator each (lib/agreement/steps.ts). */
export function* annotatorStatsSteps(
  db: Db,
  campaignId: number,
  items: readonly ItemLabels[],
  dims: readonly DimensionSpec[],
): Steps<AnnotatorStats[]> {
  const rows = db.$client
    .prepare(
      `SELECT u.email AS email, a.item_id AS itemId, a.status AS status, a.ms_spent AS ms
         FROM assignments a JOIN users u ON u.id = a.annotator_id
        WHERE a.campaign_id = ?
        ORDER BY u.email, coalesce(a.submitted_at, 0), a.position`,
    )
    .all(campaignId) as Array<{ email: string; itemId: number; status: string; ms: number }>;
  const byId = new Map(items.map((it) => [it.itemId, it]));
  const by = new Map<string, typeof rows>();
  for (const r of rows) (by.get(r.email) ?? by.set(r.email, []).get(r.email)!).push(r);
  const out: AnnotatorStats[] = [];
  yield;
  for (const [email, mine] of by) {
    const done = mine.filter((r) => r.status === "done");
    const agreement: Record<string, WithOthers> = {};
    const drifts: Record<string, Drift> = {};
    for (const d of dims) {
      const categories = d.categories.map((c) => c.value);
      // In the order they submitted: the drift's halves are their first and last items.
      const theirs: RaterItem[] = [];
      for (const r of done) {
        const labels = byId.get(r.itemId)?.human[d.key];
        const own = labels?.[email];
        if (own === undefined) continue;
        theirs.push({ own, others: Object.entries(labels!).flatMap(([who, v]) => (who === email ? [] : [v])) });
      }
      agreement[d.key] = agreementWithOthers(theirs, categories);
      drifts[d.key] = drift(theirs, categories);
    }
    out.push({
      annotator: email,
      labels: done.length,
      skipped: mine.filter((r) => r.status === "skipped").length,
      medianSeconds: (() => {
        const m = median(done.map((r) => r.ms));
        return m === null ? null : Math.round(m / 100) / 10;
      })(),
      agreement,
      drift: drifts,
    });
    yield;
  }
  return out;
}
