/**
 * A rating judge (1–3) against the humans of a rating campaign: per dimension, the mean rating of each
 * side over the items both rated, the share of human labels the judge matches exactly, and Cohen's kappa
 * (plain, linear and quadratic weighted) with the judge taken as one more rater paired with each human label.
 */
import type { Db } from "@/db/client";
import { cohenKappa, landisKoch, type CohenResult } from "@/lib/agreement";
import { tooFewItems } from "@/lib/agreement/interpret";
import { InvalidInputError, NotFoundError } from "@/lib/errors";
import { campaignDimensionsOf, getCampaign } from "./campaigns";
import { campaignLabels, judgeLabelsOf, judgeRunsOf, type ItemLabels } from "./human-labels";
import { kindDef, type DimensionSpec } from "./kinds";
import type { JudgeVerdicts } from "./verdict-import";

export interface RatingVsJudgeDimension {
  dimension: string;
  title: string;
  /** Items with a judge rating and at least one human rating. */
  n: number;
  judgeMean: number | null;
  humanMean: number | null;
  /** Share of (judge, human label) pairs that are equal. */
  exact: number | null;
  kappa: { plain: CohenResult; linear: CohenResult; quadratic: CohenResult; reading: string | null };
  /** Items where the judge is off the human mean by a full point or more. */
  disagreements: Array<{ itemId: number; externalId: string; title: string; judge: string; humans: string[] }>;
}

export function ratingVsJudge(
  db: Db,
  campaignId: number,
  runId: number,
): { run: { id: number; name: string; model: string | null }; dimensions: RatingVsJudgeDimension[] } {
  const c = getCampaign(db, campaignId);
  if (kindDef(c.kind).pairwise) throw new InvalidInputError("the rating comparison applies to rating campaigns");
  const run = judgeRunsOf(db, campaignId).find((r) => r.id === runId);
  if (!run) throw new NotFoundError(`no judge run ${runId} in campaign ${campaignId}`);
  const { items } = campaignLabels(db, campaignId);
  return {
    run: { id: run.id, name: run.name, model: run.model },
    dimensions: ratingVsJudgeDimensions(items, judgeLabelsOf(db, runId), campaignDimensionsOf(db, campaignId)),
  };
}

/** The comparison per dimension from labels already read (the background report computes it for every run). */
export function ratingVsJudgeDimensions(
  items: readonly ItemLabels[],
  judge: JudgeVerdicts,
  dims: readonly DimensionSpec[],
): RatingVsJudgeDimension[] {
  const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : null);
  return dims.map((d) => {
    const categories = d.categories.map((x) => x.value);
    const both = items
      .map((it) => ({ it, j: judge.get(it.itemId)?.[d.key]?.value, h: Object.values(it.human[d.key] ?? {}) }))
      .filter((x): x is { it: ItemLabels; j: string; h: string[] } => !!x.j && x.h.length > 0);
    const pairs = both.flatMap((x) => x.h.map((h) => [x.j, h] as const));
    const kappa = (weights: "none" | "linear" | "quadratic") => cohenKappa(pairs, { categories, weights });
    const linear = kappa("linear");
    return {
      dimension: d.key,
      title: d.title,
      n: both.length,
      judgeMean: mean(both.map((x) => Number(x.j))),
      humanMean: mean(both.flatMap((x) => x.h.map(Number))),
      exact: pairs.length ? pairs.filter(([a, b]) => a === b).length / pairs.length : null,
      kappa: {
        plain: kappa("none"),
        linear,
        quadratic: kappa("quadratic"),
        reading: tooFewItems(both.length) ? null : landisKoch(linear.value),
      },
      disagreements: both
        .filter((x) => Math.abs(Number(x.j) - mean(x.h.map(Number))!) >= 1)
        .map((x) => ({ itemId: x.it.itemId, externalId: x.it.externalId, title: x.it.title, judge: x.j, humans: x.h })),
    };
  });
}
