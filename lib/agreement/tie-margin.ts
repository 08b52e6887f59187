/**
 * Tie-margin calibration for the pairwise dialogue judge (Mem-PAL, after Table 11: FairEval calls a pair
 * a tie only when the two averages are equal; a margin widens that). Each item's stored judgments
 * (scores for side A and side B, any order) are averaged once; for every margin the judge's verdict is
 * re-derived with the same rule as the judge (`pairOutcome`: |meanA − meanB| ≤ margin is a tie) and
 * compared with the humans exactly as Table 11 is (`judgeVsHuman`). No model is called.
 */
import { pairOutcome, type Outcome } from "@/lib/metrics/faireval";
import { judgeVsHuman, type JudgeHumanOptions } from "./judge-vs-human";
import type { Label, Stat } from "./types";

/** 0 to 3 in steps of 0.25, the range the calibration chart sweeps. */
export const TIE_MARGINS: readonly number[] = Array.from({ length: 13 }, (_, i) => i * 0.25);

export interface ScoredItem {
  id: string | number;
  /** The judge's scores per call, mapped back to side A and side B. */
  judgments: ReadonlyArray<{ scoreA: number; scoreB: number }>;
  /** The humans' labels for side A (an adjudicated label alone, when the humans are taken by adjudication). */
  humans: ReadonlyArray<Label | null | undefined>;
}

export type WTL = { Win: number; Tie: number; Lose: number };

export interface MarginPoint {
  margin: number;
  /** Items compared (the humans resolved, the judge scored). */
  n: number;
  judge: WTL;
  human: WTL;
  /** Ties dropped as Table 11 does (both call a tie, or with variant "either", either does). */
  dropped: { fleiss: Stat; cohen: Stat; n: number };
  /** Every item, ties kept as a category. */
  plain: { fleiss: Stat; cohen: Stat };
}

/**
 * Why a curve has nothing to draw: null when some kappa is defined at some margin; else the first reason
 * given (e.g. "constant ratings"), so the chart says it instead of drawing empty axes (issue 44.8).
 */
export function undrawableCurve(curve: readonly MarginPoint[]): string | null {
  const stats = curve.flatMap((p) => [p.plain.cohen, p.plain.fleiss, p.dropped.cohen, p.dropped.fleiss]);
  if (stats.some((s) => s.value !== null)) return null;
  return stats.find((s) => s.reason)?.reason ?? (curve.length ? "undefined at every margin" : "no items to compare");
}

const WTL_LABELS: Label[] = ["Win", "Tie", "Lose"];

/** Mean score of each side over an item's judgments; null when it has none usable. */
export function sideMeans(judgments: ScoredItem["judgments"]): { meanA: number; meanB: number } | null {
  const ok = judgments.filter((j) => Number.isFinite(j.scoreA) && Number.isFinite(j.scoreB));
  if (!ok.length) return null;
  return { meanA: ok.reduce((s, j) => s + j.scoreA, 0) / ok.length, meanB: ok.reduce((s, j) => s + j.scoreB, 0) / ok.length };
}

/** The judge's verdict on one item at a margin (the judge's own rule). */
export function verdictAt(means: { meanA: number; meanB: number }, margin: number): Outcome {
  return pairOutcome(means.meanA, means.meanB, margin);
}

export function tieMarginCurve(
  items: readonly ScoredItem[],
  opts: { variant?: JudgeHumanOptions["variant"]; margins?: readonly number[] } = {},
): MarginPoint[] {
  const scored = items.flatMap((it) => {
    const m = sideMeans(it.judgments);
    return m ? [{ ...it, means: m }] : [];
  });
  return (opts.margins ?? TIE_MARGINS).map((margin) => {
    const r = judgeVsHuman(
      scored.map((it) => ({ id: it.id, llm: verdictAt(it.means, margin), humans: it.humans })),
      { tieLabel: "Tie", humanTieRule: "tie", variant: opts.variant ?? "both", categories: WTL_LABELS },
    );
    const count = (rec: Record<string, number>): WTL => ({ Win: rec.Win ?? 0, Tie: rec.Tie ?? 0, Lose: rec.Lose ?? 0 });
    return {
      margin,
      n: r.plain.n,
      judge: count(r.llmCounts),
      human: count(r.humanCounts),
      dropped: { fleiss: r.fleissKappa, cohen: r.cohenKappa, n: r.n },
      plain: { fleiss: r.plain.fleissKappa, cohen: r.plain.cohenKappa },
    };
  });
}

export type CalibrationCriterion = "cohen-plain" | "fleiss-plain" | "cohen-dropped" | "fleiss-dropped";

export const CRITERIA: Record<CalibrationCriterion, { label: string; of: (p: MarginPoint) => number | null }> = {
  "cohen-plain": { label: "Cohen κ, all items", of: (p) => p.plain.cohen.value },
  "fleiss-plain": { label: "Fleiss κ, all items", of: (p) => p.plain.fleiss.value },
  "cohen-dropped": { label: "Cohen κ, ties dropped", of: (p) => p.dropped.cohen.value },
  "fleiss-dropped": { label: "Fleiss κ, ties dropped", of: (p) => p.dropped.fleiss.value },
};

/**
 * The margin whose criterion, averaged over the dimensions that define it, is highest; the smaller
 * margin on equal values (change no more than the data asks). Null when no margin defines it.
 */
export function bestMargin(curves: ReadonlyArray<readonly MarginPoint[]>, criterion: CalibrationCriterion = "cohen-plain"): number | null {
  const of = CRITERIA[criterion].of;
  let best: { margin: number; score: number } | null = null;
  const margins = curves[0]?.map((p) => p.margin) ?? [];
  margins.forEach((margin, i) => {
    const vals = curves.map((c) => of(c[i])).filter((v): v is number => v !== null && Number.isFinite(v));
    if (!vals.length) return;
    const score = vals.reduce((a, b) => a + b, 0) / vals.length;
    if (!best || score > best.score + 1e-12) best = { margin, score };
  });
  return (best as { margin: number } | null)?.margin ?? null;
}
