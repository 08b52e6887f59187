/**
 * The campaign page's judge tables, computed with the background agreement report (./agreement-cache.ts)
 * and stored in it, never in a request (issue 30.2): each judge run against the humans as the campaign
 * kind reads it (Mem-PAL Table 11 for pairwise kinds, for every choice of humans and tie variant the page
 * offers; the rating comparison for rating kinds), the tie-margin curves of pairwise dialogues (the best
 * margin per criterion is picked when read: a pass over the margins) and HiCUPID's Figure 2.
 *
 * The tables keep their data shape (counts, kappas) so other rows can be set beside them; what grows with
 * the campaign, the items each run disagrees on, is kept as item ids and resolved to titles a page at a
 * time (./judge-item-lists.ts).
 */
import type { Steps } from "@/lib/agreement";
import type { JudgeHumanResult } from "@/lib/agreement/judge-vs-human";
import { calibrationCurves, type CalibrationCurves } from "./calibration";
import type { ItemLabels } from "./human-labels";
import type { DimensionSpec } from "./kinds";
import { ratingVsJudgeDimensions, type RatingVsJudgeDimension } from "./rating-vs-judge";
import { figure2Of, humanVsJudgeDimensions, type DimensionVsJudge, type Figure2, type JudgeVerdicts } from "./verdict-import";

export const HUMANS = ["vote", "adjudication"] as const;
export const VARIANTS = ["both", "either"] as const;
export type HumansChoice = (typeof HUMANS)[number];
export type VariantChoice = (typeof VARIANTS)[number];
/** "vote/both", "adjudication/either", ...: one stored set of tables per choice the page offers. */
export type ChoiceKey = `${HumansChoice}/${VariantChoice}`;
export const choiceKey = (humans: HumansChoice, variant: VariantChoice): ChoiceKey => `${humans}/${variant}`;

type RunRef = { id: number; name: string; model: string | null };

/** Table 11's figures for one dimension, without the per-item lists (those become `disagreements`). */
export type Table11Figures = Omit<JudgeHumanResult, "humanLabels" | "disagreements" | "unresolved"> & { unresolved: number };

export interface StoredTable11 {
  run: RunRef;
  dimensions: Array<Omit<DimensionVsJudge, "result" | "disagreements"> & { result: Table11Figures; disagreements: number[] }>;
}

export interface StoredRatingVsJudge {
  run: RunRef;
  dimensions: Array<Omit<RatingVsJudgeDimension, "disagreements"> & { disagreements: number[] }>;
}

export interface JudgeViews {
  /** Pairwise kinds: each run's Table 11, per choice of humans and variant. */
  table11: Partial<Record<ChoiceKey, StoredTable11[]>>;
  /** Pairwise dialogues: each run's tie-margin curves, per choice. */
  calibration: Partial<Record<ChoiceKey, CalibrationCurves[]>>;
  /** Rating kinds: each run against the annotators. */
  ratings: StoredRatingVsJudge[];
  /** HiCUPID A/B: Figure 2. */
  figure2: Figure2[];
}

export interface JudgedRun {
  run: RunRef & { config: unknown };
  labels: JudgeVerdicts;
}

function table11Of(run: RunRef, dims: DimensionVsJudge[]): StoredTable11 {
  return {
    run,
    dimensions: dims.map(({ result, disagreements, ...d }) => {
      const { humanLabels: _h, disagreements: _d, unresolved, ...figures } = result;
      return { ...d, result: { ...figures, unresolved: unresolved.length }, disagreements: disagreements.map((x) => x.itemId) };
    }),
  };
}

/**
 * The views from labels already read (runs without a single verdict are left out: nothing to compare);
 * a step per run and choice, so the server keeps serving between them.
 */
export function* judgeViewsSteps(
  kind: { kind: string; pairwise: boolean },
  items: readonly ItemLabels[],
  runs: readonly JudgedRun[],
  dims: readonly DimensionSpec[],
): Steps<JudgeViews> {
  const views: JudgeViews = { table11: {}, calibration: {}, ratings: [], figure2: [] };
  const judged = runs.filter((r) => r.labels.size > 0);
  const ref = (r: JudgedRun["run"]): RunRef => ({ id: r.id, name: r.name, model: r.model });
  if (!kind.pairwise) {
    for (const r of judged) {
      const dimensions = ratingVsJudgeDimensions(items, r.labels, dims).map((d) => ({
        ...d,
        disagreements: d.disagreements.map((x) => x.itemId),
      }));
      views.ratings.push({ run: ref(r.run), dimensions });
      yield;
    }
    return views;
  }
  for (const humans of HUMANS) {
    for (const variant of VARIANTS) {
      const key = choiceKey(humans, variant);
      const tables: StoredTable11[] = [];
      const curves: CalibrationCurves[] = [];
      for (const r of judged) {
        tables.push(table11Of(ref(r.run), humanVsJudgeDimensions(items, r.labels, dims, { humans, variant })));
        yield;
        if (kind.kind === "pairwise-dialogue") {
          curves.push(calibrationCurves(r.run, items, r.labels, dims, { humans, variant }));
          yield;
        }
      }
      views.table11[key] = tables;
      if (kind.kind === "pairwise-dialogue") views.calibration[key] = curves;
    }
  }
  if (kind.kind === "hicupid-ab") views.figure2 = figure2Of(items, judged, dims);
  return views;
}
