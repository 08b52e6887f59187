/**
 * Tie-margin calibration of a pairwise campaign's judge run (lib/agreement/tie-margin.ts): the stored
 * judgments of each item (six per dimension for an LLM run, or the `judgments` an imported file gave)
 * are re-aggregated at every margin from 0 to 3 and compared with the humans. No model call is made.
 * Applying the chosen margin to an experiment re-derives that experiment's pairwise W/T/L from its
 * stored mean scores (lib/experiments/results.ts).
 */
import { and, eq, isNotNull, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { campaignSystems, experiments, jobs } from "@/db/schema";
import { bestMargin, TIE_MARGINS, tieMarginCurve, type CalibrationCriterion, type MarginPoint, type ScoredItem } from "@/lib/agreement";
import { InvalidInputError, NotFoundError } from "@/lib/errors";
import { campaignDimensionsOf, getCampaign } from "./campaigns";
import { campaignLabels, judgeLabelsOf, judgeRunsOf, type ItemLabels } from "./human-labels";
import { kindDef, type DimensionSpec } from "./kinds";
import type { JudgeVerdicts } from "./verdict-import";

export interface CalibrationDimension {
  dimension: string;
  title: string;
  curve: MarginPoint[];
  /** Items the judge gave a verdict but no scores for (imported verdicts without judgments): left out. */
  unscored: number;
}

export interface TieMarginCalibration {
  run: { id: number; name: string; model: string | null; margin: number | null };
  humans: "vote" | "adjudication";
  variant: "both" | "either";
  criterion: CalibrationCriterion;
  dimensions: CalibrationDimension[];
  best: number | null;
  /** Why there is no curve to show, when there is none. */
  reason: string | null;
}

/** Side-A / side-B scores of stored judgments (LLM runs store scoreA/scoreB; imports may give only the shown order). */
function scoresOf(judgments: unknown[] | null): ScoredItem["judgments"] {
  const out: Array<{ scoreA: number; scoreB: number }> = [];
  for (const j of judgments ?? []) {
    if (!j || typeof j !== "object") continue;
    const r = j as Record<string, unknown>;
    let a = Number(r.scoreA);
    let b = Number(r.scoreB);
    if (!(Number.isFinite(a) && Number.isFinite(b)) && (r.order === "AB" || r.order === "BA")) {
      const first = Number(r.scoreFirst);
      const second = Number(r.scoreSecond);
      [a, b] = r.order === "AB" ? [first, second] : [second, first];
    }
    if (Number.isFinite(a) && Number.isFinite(b)) out.push({ scoreA: a, scoreB: b });
  }
  return out;
}

export function tieMarginCalibration(
  db: Db,
  campaignId: number,
  runId: number,
  opts: { humans?: "vote" | "adjudication"; variant?: "both" | "either"; criterion?: CalibrationCriterion } = {},
): TieMarginCalibration {
  const c = getCampaign(db, campaignId);
  if (c.kind !== "pairwise-dialogue" || !kindDef(c.kind).pairwise)
    throw new InvalidInputError("tie-margin calibration applies to pairwise dialogue campaigns");
  const run = judgeRunsOf(db, campaignId).find((r) => r.id === runId);
  if (!run) throw new NotFoundError(`no judge run ${runId} in campaign ${campaignId}`);
  const { items } = campaignLabels(db, campaignId);
  const curves = calibrationCurves(run, items, judgeLabelsOf(db, runId), campaignDimensionsOf(db, campaignId), opts);
  return withBestMargin(curves, opts.criterion ?? "cohen-plain");
}

/** A calibration without its best margin: what the background report stores (the criterion is the reader's choice). */
export type CalibrationCurves = Omit<TieMarginCalibration, "criterion" | "best">;

/** The curves from labels already read. */
export function calibrationCurves(
  run: { id: number; name: string; model: string | null; config: unknown },
  items: readonly ItemLabels[],
  judge: JudgeVerdicts,
  dims: readonly DimensionSpec[],
  opts: { humans?: "vote" | "adjudication"; variant?: "both" | "either" } = {},
): CalibrationCurves {
  const humans = opts.humans ?? "vote";
  const variant = opts.variant ?? "both";
  const cfgMargin = Number((run.config as Record<string, unknown> | null)?.tieMargin);
  const dimensions = dims.map((d) => {
    let unscored = 0;
    const scored: ScoredItem[] = [];
    for (const it of items) {
      const v = judge.get(it.itemId)?.[d.key];
      const votes = Object.values(it.human[d.key] ?? {});
      if (!v || votes.length === 0) continue;
      const judgments = scoresOf(v.judgments);
      if (!judgments.length) {
        unscored++;
        continue;
      }
      const adj = humans === "adjudication" ? (it.adjudicated[d.key] ?? null) : null;
      scored.push({ id: it.itemId, judgments, humans: adj !== null ? [adj] : votes });
    }
    return { dimension: d.key, title: d.title, curve: tieMarginCurve(scored, { variant }), unscored };
  });
  const compared = dimensions.reduce((n, d) => n + (d.curve[0]?.n ?? 0), 0);
  const unscored = dimensions.reduce((n, d) => n + d.unscored, 0);
  const reason =
    compared > 0
      ? null
      : unscored > 0
        ? "this run's verdicts carry no scores (an imported file without judgments), so other margins cannot be derived"
        : "no item has both a judge verdict with scores and a human label yet";
  return {
    run: { id: run.id, name: run.name, model: run.model, margin: Number.isFinite(cfgMargin) ? cfgMargin : null },
    humans,
    variant,
    dimensions,
    reason,
  };
}

/** The best margin by a criterion: a pass over the margins, cheap enough for a page. */
export function withBestMargin(cal: CalibrationCurves, criterion: CalibrationCriterion): TieMarginCalibration {
  return {
    ...cal,
    criterion,
    best: cal.reason
      ? null
      : bestMargin(
          cal.dimensions.map((d) => d.curve),
          criterion,
        ),
  };
}

/** Experiments with pairwise dialogue results a margin can be applied to (finished judge jobs, phase 1). */
export function experimentsWithPairwiseResults(db: Db): Array<{ id: number; name: string; margin: number | null }> {
  return db
    .select({ id: experiments.id, name: experiments.name, margin: experiments.pairwiseTieMargin })
    .from(experiments)
    .where(
      sql`exists (select 1 from ${jobs} where ${jobs.experimentId} = ${experiments.id} and ${jobs.phase} = 1 and ${jobs.status} = 'done')`,
    )
    .orderBy(experiments.id)
    .all();
}

/**
 * Sets the tie margin an experiment's pairwise W/T/L is read with (null: back to the margin it ran
 * with). `source` says where the margin came from, shown beside the results.
 */
export function applyPairwiseTieMargin(db: Db, experimentId: number, margin: number | null, source: string | null): void {
  if (margin !== null && !(Number.isFinite(margin) && margin >= 0 && margin <= 10))
    throw new InvalidInputError(`margin: expected a number from 0 to 10, got ${margin}`);
  const e = db.select({ id: experiments.id }).from(experiments).where(eq(experiments.id, experimentId)).get();
  if (!e) throw new NotFoundError(`experiment ${experimentId} does not exist`);
  const pairs = db
    .select({ n: sql<number>`count(*)` })
    .from(jobs)
    .where(and(eq(jobs.experimentId, experimentId), eq(jobs.phase, 1)))
    .get();
  if (margin !== null && !pairs?.n) throw new InvalidInputError(`experiment ${experimentId} has no pairwise dialogue results`);
  db.update(experiments)
    .set({ pairwiseTieMargin: margin, pairwiseTieMarginSource: margin === null ? null : source })
    .where(eq(experiments.id, experimentId))
    .run();
}

/** The experiment a campaign's items came from (source "experiment"), if any: the default target of "Apply". */
export function campaignExperimentId(db: Db, campaignId: number): number | null {
  const r = db
    .select({ id: campaignSystems.experimentId })
    .from(campaignSystems)
    .where(and(eq(campaignSystems.campaignId, campaignId), isNotNull(campaignSystems.experimentId)))
    .get();
  return r?.id ?? null;
}

export { TIE_MARGINS };
