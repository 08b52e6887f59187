/**
 * Agreement split by guideline version (issue 43.5): per version the labels given under it, per dimension,
 * with percent agreement, Fleiss' kappa and Krippendorff's alpha among those labels only (no bootstrap:
 * a version's share of the labels is often small, and the whole report carries the intervals).
 */
import { agreementReportSteps, type Label, type Steps } from "@/lib/agreement";
import type { ItemLabels } from "./human-labels";
import type { DimensionSpec } from "./kinds";

export interface VersionAgreement {
  version: number;
  dimensions: Array<{
    key: string;
    title: string;
    /** Labels given under this version. */
    labels: number;
    /** Items with two or more labels of this version: the n behind the statistics. */
    pairedItems: number;
    percentAgreement: number | null;
    fleissKappa: number | null;
    krippendorffAlpha: number | null;
  }>;
}

export function* agreementByVersionSteps(
  items: readonly ItemLabels[],
  dims: readonly DimensionSpec[],
  perItem: number,
): Steps<VersionAgreement[]> {
  const versions = new Set<number>();
  for (const it of items) for (const byRater of Object.values(it.versions)) for (const v of Object.values(byRater)) versions.add(v);
  const out: VersionAgreement[] = [];
  for (const version of [...versions].sort((a, b) => a - b)) {
    const dimensions: VersionAgreement["dimensions"] = [];
    for (const d of dims) {
      const rated = items
        .map((it) => {
          const ratings: Record<string, Label> = {};
          for (const [rater, value] of Object.entries(it.human[d.key] ?? {}))
            if (it.versions[d.key]?.[rater] === version) ratings[rater] = value;
          return { id: it.externalId, ratings };
        })
        .filter((it) => Object.keys(it.ratings).length > 0);
      const labels = rated.reduce((n, it) => n + Object.keys(it.ratings).length, 0);
      if (!labels) continue;
      const r = yield* agreementReportSteps(
        { scale: d.scale, categories: d.categories.map((c) => c.value), items: rated },
        { ratingsPerItem: perItem },
      );
      dimensions.push({
        key: d.key,
        title: d.title,
        labels,
        pairedItems: rated.filter((it) => Object.keys(it.ratings).length >= 2).length,
        percentAgreement: r.percentAgreement,
        fleissKappa: r.fleissKappa,
        krippendorffAlpha: r.krippendorffAlpha,
      });
      yield;
    }
    out.push({ version, dimensions });
  }
  return out;
}
