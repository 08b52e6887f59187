/**
 * A campaign's inter-annotator agreement per dimension, from lib/agreement: the numbers the
 * dashboard shows and `pal metrics agreement --campaign` prints (one function for both).
 */
import type { Db } from "@/db/client";
import { agreementReport, landisKoch, majorityVote, type AgreementReport, type Label, type TieRule } from "@/lib/agreement";
import { InvalidInputError } from "@/lib/errors";
import { campaignDimensionsOf, getCampaign } from "./campaigns";
import { campaignLabels } from "./human-labels";
import type { DimensionSpec } from "./kinds";

export interface DimensionAgreement {
  dimension: DimensionSpec;
  report: AgreementReport;
  /** Landis–Koch reading of each Cohen pair (unweighted, linear, quadratic). */
  cohenInterpretation: Array<{ raters: [string, string]; kappa: string | null; linear: string | null; quadratic: string | null }>;
  /** Items with at least one label / with two or more. */
  labelledItems: number;
  /** Mean rating (ordinal numeric scales: the paper's "average score"), over every label. */
  mean: number | null;
  /** Label counts per category, over every label. */
  distribution: Record<string, number>;
  perRater: Record<string, Record<string, number>>;
  majority: { tieRule: TieRule; items: Array<{ itemId: number; externalId: string; label: string | null; tied: boolean; rule: string }> };
  /** Each rater's labels (rows) against the majority label (columns), in category order. */
  confusion: Array<{ rater: string; counts: number[][] }>;
}

export interface CampaignAgreement {
  campaignId: number;
  kind: string;
  tieRule: TieRule;
  raters: string[];
  dimensions: DimensionAgreement[];
  /** Items ranked by disagreement (share of dissenting labels summed over dimensions). */
  mostDisagreement: Array<{ itemId: number; externalId: string; score: number }>;
}

export interface AgreementOptions {
  dimension?: string;
  bootstrap?: number;
  seed?: number;
}

export function campaignAgreement(db: Db, campaignId: number, opts: AgreementOptions = {}): CampaignAgreement {
  const c = getCampaign(db, campaignId);
  let dims = campaignDimensionsOf(db, campaignId);
  if (opts.dimension !== undefined) {
    dims = dims.filter((d) => d.key === opts.dimension);
    if (!dims.length) throw new InvalidInputError(`dimension: "${opts.dimension}" is not a dimension of campaign ${campaignId}`);
  }
  const { items, raters } = campaignLabels(db, campaignId);
  const tieRule = c.tieRule as TieRule;
  const disagreement = new Map<number, number>();

  const dimensions = dims.map((d): DimensionAgreement => {
    const categories: Label[] = d.categories.map((x) => x.value);
    const labelled = items.filter((it) => Object.keys(it.human[d.key] ?? {}).length > 0);
    const report = agreementReport(
      { scale: d.scale, categories, items: labelled.map((it) => ({ id: it.externalId, ratings: { ...it.human[d.key] } })) },
      { bootstrap: { iterations: opts.bootstrap ?? 1000, seed: opts.seed ?? 1 } },
    );
    const distribution: Record<string, number> = Object.fromEntries(categories.map((x) => [String(x), 0]));
    const perRater: Record<string, Record<string, number>> = {};
    let sum = 0;
    let n = 0;
    for (const it of labelled) {
      for (const [rater, v] of Object.entries(it.human[d.key])) {
        distribution[v] = (distribution[v] ?? 0) + 1;
        (perRater[rater] ??= Object.fromEntries(categories.map((x) => [String(x), 0])))[v]++;
        if (d.scale === "ordinal" && Number.isFinite(Number(v))) {
          sum += Number(v);
          n++;
        }
      }
    }
    const index = new Map(categories.map((x, i) => [String(x), i]));
    const confusion = new Map<string, number[][]>();
    const majorityItems = labelled.map((it) => {
      const ratings = Object.values(it.human[d.key]);
      const m = majorityVote(ratings, { tieRule, order: categories, adjudicated: it.adjudicated[d.key] ?? null });
      const label = m.label === null ? null : String(m.label);
      if (ratings.length > 1) {
        const top = Math.max(...Object.values(m.counts));
        disagreement.set(it.itemId, (disagreement.get(it.itemId) ?? 0) + (1 - top / ratings.length));
      }
      if (label !== null && index.has(label)) {
        for (const [rater, v] of Object.entries(it.human[d.key])) {
          let mat = confusion.get(rater);
          if (!mat) confusion.set(rater, (mat = categories.map(() => categories.map(() => 0))));
          mat[index.get(v)!][index.get(label)!]++;
        }
      }
      return { itemId: it.itemId, externalId: it.externalId, label, tied: m.tied, rule: m.rule };
    });
    return {
      dimension: d,
      report,
      cohenInterpretation: report.cohen.map((p) => ({
        raters: p.raters,
        kappa: landisKoch(p.kappa),
        linear: landisKoch(p.linearWeightedKappa),
        quadratic: landisKoch(p.quadraticWeightedKappa),
      })),
      labelledItems: labelled.length,
      mean: n ? sum / n : null,
      distribution,
      perRater,
      majority: { tieRule, items: majorityItems },
      confusion: [...confusion].sort(([a], [b]) => a.localeCompare(b)).map(([rater, counts]) => ({ rater, counts })),
    };
  });
  const byId = new Map(items.map((i) => [i.itemId, i]));
  const mostDisagreement = [...disagreement]
    .filter(([, s]) => s > 0)
    .sort((a, b) => b[1] - a[1] || a[0] - b[0])
    .slice(0, 20)
    .map(([itemId, score]) => ({ itemId, externalId: byId.get(itemId)!.externalId, score: Math.round(score * 1e6) / 1e6 }));
  return { campaignId, kind: c.kind, tieRule, raters, dimensions, mostDisagreement };
}
