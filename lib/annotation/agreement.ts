/**
 * A campaign's inter-annotator agreement per dimension, from lib/agreement: the numbers the
 * dashboard shows and `pal metrics agreement --campaign` prints (one function for both).
 */
import type { Db } from "@/db/client";
import {
  agreementReportSteps,
  landisKochReading,
  majorityVote,
  reportWarnings,
  runSteps,
  type AgreementReport,
  type AgreementWarning,
  type Label,
  type Steps,
  type TieRule,
} from "@/lib/agreement";
import { InvalidInputError } from "@/lib/errors";
import { annotatorStatsSteps, type AnnotatorStats } from "./agreement-annotators";
import { judgeAgreementSteps, type JudgeAgreement } from "./agreement-judges";
import { campaignDimensionsOf, getCampaign } from "./campaigns";
import { describeNamed } from "./blinding";
import { campaignLabels, judgeLabelsOf, judgeRunsOf } from "./human-labels";
import { judgeViewsSteps, type JudgedRun, type JudgeViews } from "./judge-views";
import { agreementByVersionSteps, type VersionAgreement } from "./agreement-versions";
import { kindDef, type DimensionSpec } from "./kinds";

export interface DimensionAgreement {
  dimension: DimensionSpec;
  report: AgreementReport;
  /** Landis–Koch reading of each Cohen pair (unweighted, linear, quadratic), its interval's span when that crosses bands. */
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
  /** `title`: what researchers read (absent in reports cached before titles: the external id is shown). */
  mostDisagreement: Array<{ itemId: number; externalId: string; title?: string; score: number }>;
  /** Per annotator: labels, skips, pace, agreement with the others and its drift (./agreement-annotators.ts). */
  annotators: AnnotatorStats[];
  /** Each judge run against the humans, per dimension, with intervals (./agreement-judges.ts). */
  judges: JudgeAgreement[];
  /** Figures easy to over-read (lib/agreement/warnings.ts), for every dimension and judge. */
  warnings: AgreementWarning[];
  /** The campaign page's judge tables (Table 11, rating comparison, tie-margin curves, Figure 2): ./judge-views.ts. */
  judgeViews: JudgeViews;
  /**
   * Every item with dissenting labels, most disagreement first (the adjudication queue reads it a page at a
   * time: ./adjudication.ts). Absent in reports cached before it.
   */
  disagreementQueue?: Array<{ itemId: number; score: number }>;
  /** Agreement among the labels of each guideline version (./agreement-versions.ts). Absent in older reports. */
  byVersion?: VersionAgreement[];
}

export interface AgreementOptions {
  dimension?: string;
  bootstrap?: number;
  seed?: number;
}

/** The whole report at once (the CLI); the server computes it in slices in the background (./agreement-cache.ts). */
export function campaignAgreement(db: Db, campaignId: number, opts: AgreementOptions = {}): CampaignAgreement {
  return runSteps(campaignAgreementSteps(db, campaignId, opts));
}

/**
 * The report as steps (lib/agreement/steps.ts). The database is read at the start, at once (a consistent
 * snapshot: `campaignLabels`, the assignments, the judge labels); the statistics then run in steps.
 */
export function* campaignAgreementSteps(db: Db, campaignId: number, opts: AgreementOptions = {}): Steps<CampaignAgreement> {
  const c = getCampaign(db, campaignId);
  let dims = campaignDimensionsOf(db, campaignId);
  if (opts.dimension !== undefined) {
    dims = dims.filter((d) => d.key === opts.dimension);
    if (!dims.length) throw new InvalidInputError(`dimension: "${opts.dimension}" is not a dimension of campaign ${campaignId}`);
  }
  const { items, raters } = campaignLabels(db, campaignId);
  // Each read is a few tens of milliseconds on a large campaign: the server serves requests between them.
  // A label written in between makes this report stale (its key was read first), so it is computed again.
  yield;
  const runs: JudgedRun[] = judgeRunsOf(db, campaignId).map((run) => ({ run, labels: judgeLabelsOf(db, run.id) }));
  yield;
  const tieRule = c.tieRule as TieRule;
  const disagreement = new Map<number, number>();
  const annotators = yield* annotatorStatsSteps(db, campaignId, items, dims);
  // The page's tables cover every dimension, whatever the report is restricted to.
  const judgeViews = yield* judgeViewsSteps(
    { kind: c.kind, pairwise: kindDef(c.kind).pairwise },
    items,
    runs,
    campaignDimensionsOf(db, campaignId),
  );
  const judges = judgeAgreementSteps(c.kind, items, runs, dims, judgeViews, { iterations: opts.bootstrap ?? 1000, seed: opts.seed ?? 1 });
  yield;
  const warnings: AgreementWarning[] = [];
  if (c.blindingOverride?.named.length)
    warnings.push({
      dimension: "*",
      kind: "unblinded",
      message: `annotators were not blind: ${describeNamed(c.blindingOverride.named)}, shown to them by the creator's override (${c.blindingOverride.at.slice(0, 10)}); their labels may favour a system they recognise`,
    });

  const dimensions: DimensionAgreement[] = [];
  for (const d of dims) {
    const categories: Label[] = d.categories.map((x) => x.value);
    const labelled = items.filter((it) => Object.keys(it.human[d.key] ?? {}).length > 0);
    yield;
    const report = yield* agreementReportSteps(
      { scale: d.scale, categories, items: labelled.map((it) => ({ id: it.externalId, ratings: { ...it.human[d.key] } })) },
      { bootstrap: { iterations: opts.bootstrap ?? 1000, seed: opts.seed ?? 1 }, ratingsPerItem: c.perItem },
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
      const adjudicated = it.adjudicated[d.key];
      const m = majorityVote(ratings, { tieRule, order: categories, adjudicated: adjudicated ?? null });
      // A researcher's decision is the item's final label, whatever the votes and the tie rule (issue 43.4).
      const label = adjudicated !== undefined ? adjudicated : m.label === null ? null : String(m.label);
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
      return {
        itemId: it.itemId,
        externalId: it.externalId,
        label,
        tied: m.tied,
        rule: adjudicated !== undefined ? "adjudicated" : m.rule,
      };
    });
    const paired = labelled.filter((it) => Object.keys(it.human[d.key]).length >= 2).length;
    warnings.push(...reportWarnings(d.key, report, { paired, distribution, perRater }));
    dimensions.push({
      dimension: d,
      report,
      cohenInterpretation: report.cohen.map((p) => ({
        raters: p.raters,
        kappa: landisKochReading(p.kappa, p.ci?.kappa, p.n),
        linear: landisKochReading(p.linearWeightedKappa, p.ci?.linearWeightedKappa, p.n),
        quadratic: landisKochReading(p.quadraticWeightedKappa, p.ci?.quadraticWeightedKappa, p.n),
      })),
      labelledItems: labelled.length,
      mean: n ? sum / n : null,
      distribution,
      perRater,
      majority: { tieRule, items: majorityItems },
      confusion: [...confusion].sort(([a], [b]) => a.localeCompare(b)).map(([rater, counts]) => ({ rater, counts })),
    });
    yield;
  }
  const judged = yield* judges;
  warnings.push(...judged.warnings);
  const byVersion = yield* agreementByVersionSteps(items, dims, c.perItem);
  const byId = new Map(items.map((i) => [i.itemId, i]));
  const ranked = [...disagreement].filter(([, s]) => s > 0).sort((a, b) => b[1] - a[1] || a[0] - b[0]);
  const disagreementQueue = ranked.map(([itemId, score]) => ({ itemId, score: Math.round(score * 1e6) / 1e6 }));
  const mostDisagreement = ranked.slice(0, 20).map(([itemId, score]) => ({
    itemId,
    externalId: byId.get(itemId)!.externalId,
    title: byId.get(itemId)!.title,
    score: Math.round(score * 1e6) / 1e6,
  }));
  return {
    campaignId,
    kind: c.kind,
    tieRule,
    raters,
    dimensions,
    mostDisagreement,
    annotators,
    judges: judged.judges,
    warnings,
    judgeViews,
    disagreementQueue,
    byVersion,
  };
}
