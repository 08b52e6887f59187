/**
 * How a HiCUPID item's judgments are stored and aggregated. Score rows hold numbers only, so a verdict
 * is coded (A = 0, B = 1, Tie = 2; YES = 1, NO = 0) together with the slot the model's answer was shown
 * in (A = 0, B = 1); the aggregation decodes them and uses lib/metrics (abScore, scheduleScore,
 * hicupidTotal, corpus BLEU, ROUGE-L) and lib/agreement (Cohen's kappa between the two judges).
 */
import {
  abOutcome,
  abScore,
  hfBleuFromStats,
  hicupidTotal,
  scheduleScore,
  type AbVerdict,
  type HfBleuStats,
  type Slot,
} from "@/lib/metrics";
import { cohenKappa } from "@/lib/agreement/cohen";
import { mean } from "../types";

export const VERDICT_CODE: Record<AbVerdict, number> = { A: 0, B: 1, Tie: 2 };
export const VERDICTS: AbVerdict[] = ["A", "B", "Tie"];
export const SLOTS: Slot[] = ["A", "B"];

/** Scorer name of the i-th judge: "judge" for the first, "judge2" for the second. */
export const judgeScorer = (i: number) => (i === 0 ? "judge" : `judge${i + 1}`);

export function bleuValues(s: HfBleuStats): Record<string, number> {
  const v: Record<string, number> = { tl: s.translationLength, rl: s.referenceLength };
  s.matches.forEach((m, i) => (v[`m${i + 1}`] = m));
  s.possible.forEach((p, i) => (v[`p${i + 1}`] = p));
  return v;
}

export function bleuStats(v: Record<string, number | null>): HfBleuStats {
  const n = Object.keys(v).filter((k) => /^m\d+$/.test(k)).length;
  return {
    matches: Array.from({ length: n }, (_, i) => v[`m${i + 1}`] ?? 0),
    possible: Array.from({ length: n }, (_, i) => v[`p${i + 1}`] ?? 0),
    translationLength: v.tl ?? 0,
    referenceLength: v.rl ?? 0,
  };
}

type Values = Record<string, Record<string, number | null>>;

/**
 * HiCUPID's retrieval hit of one item (Table A2): persona and schedule items hit when their associated
 * dialogue is retrieved; a multi-info (profile) item has a persona hit (its persona dialogue retrieved)
 * and a profile hit (any of its profile dialogues retrieved). 1 or 0 each.
 */
export function hitValues(
  type: "persona" | "profile" | "schedule",
  relevant: ReadonlyArray<{ key: string; type: string | null }>,
  retrieved: ReadonlySet<string>,
): Record<string, number> {
  const got = (t?: string) => (relevant.some((r) => (t === undefined || r.type === t) && retrieved.has(r.key)) ? 1 : 0);
  if (type === "profile") return { personaHit: got("persona"), profileHit: got("profile") };
  return { hit: got() };
}

/**
 * The hit rate as HiCUPID reports it (Table A2), in percent: persona × 25/40 + schedule × 10/40 +
 * (multi-info persona + multi-info profile)/2 × 5/40, each the share of that type's items that hit.
 * A type with no items drops out and the weights of the others are rescaled.
 */
export function hitRate(items: HitItem[]): number | null {
  return hitRateOfShares(hitShares(items));
}

type HitItem = { type: number; hit?: number | null; personaHit?: number | null; profileHit?: number | null };
export type HitShares = { persona: number | null; schedule: number | null; multiPersona: number | null; multiProfile: number | null };

/** Each type's share of hits (0..1; null: no items of that type). */
export function hitShares(items: HitItem[]): HitShares {
  return {
    persona: mean(items.filter((i) => i.type === 0).map((i) => i.hit)),
    schedule: mean(items.filter((i) => i.type === 2).map((i) => i.hit)),
    multiPersona: mean(items.filter((i) => i.type === 1).map((i) => i.personaHit)),
    multiProfile: mean(items.filter((i) => i.type === 1).map((i) => i.profileHit)),
  };
}

/** Table A2's columns as metrics, in percent: each type's hits and the weighted total (`hitRate`). */
export function hitMetrics(s: HitShares): Record<string, number | null> {
  const pct = (x: number | null) => (x === null ? null : x * 100);
  return {
    hitRate: hitRateOfShares(s),
    hitPersona: pct(s.persona),
    hitSchedule: pct(s.schedule),
    hitMultiPersona: pct(s.multiPersona),
    hitMultiProfile: pct(s.multiProfile),
  };
}

/** No retrieval: every hit metric null. */
export const NO_HITS: Record<string, null> = {
  hitRate: null,
  hitPersona: null,
  hitSchedule: null,
  hitMultiPersona: null,
  hitMultiProfile: null,
};

/** The hit rate from each type's share of hits (null: no items of that type); the experiments' running sums use it too. */
export function hitRateOfShares(s: HitShares): number | null {
  const multi = s.multiPersona === null || s.multiProfile === null ? null : (s.multiPersona + s.multiProfile) / 2;
  const parts = [
    [s.persona, 25],
    [s.schedule, 10],
    [multi, 5],
  ].filter((p): p is [number, number] => p[0] !== null);
  if (!parts.length) return null;
  const w = parts.reduce((a, p) => a + p[1], 0);
  return (parts.reduce((a, p) => a + p[0] * p[1], 0) / w) * 100;
}

/** One judge's label for an item (for the kappa): the model's outcome, or YES/NO. */
export function judgeLabel(v: Record<string, number | null> | undefined): string | null {
  if (!v) return null;
  if (typeof v.yes === "number") return v.yes ? "YES" : "NO";
  if (typeof v.verdict === "number" && typeof v.slot === "number") return abOutcome(VERDICTS[v.verdict], SLOTS[v.slot]);
  return null;
}

/** Metrics of one method × run: per type scores and Total for each judge, BLEU, ROUGE-L, recall, kappa. */
export function hicupidMetrics(items: Values[], judges: number): Record<string, number | null> {
  const out: Record<string, number | null> = {};
  for (let j = 0; j < judges; j++) {
    const sc = judgeScorer(j);
    const suffix = j === 0 ? "" : `@${j + 1}`;
    const ab = (type: number) =>
      abScore(
        items
          .map((s) => s[sc])
          .filter((v): v is Record<string, number | null> => !!v && v.type === type && typeof v.verdict === "number")
          .map((v) => ({ verdict: VERDICTS[v.verdict!], modelSlot: SLOTS[v.slot!] })),
      ).score;
    const persona = ab(0);
    const profile = ab(1);
    const schedule = scheduleScore(
      items
        .map((s) => s[sc])
        .filter((v) => v && typeof v.yes === "number")
        .map((v) => (v!.yes ? "YES" : "NO")),
    ).score;
    out[`persona${suffix}`] = persona;
    out[`schedule${suffix}`] = schedule;
    out[`profile${suffix}`] = profile;
    out[`total${suffix}`] = hicupidTotal({ persona, schedule, profile });
    // Read as the public scripts read replies: how many held no verdict (already counted as Tie or NO above).
    const read = items.map((s) => s[sc]?.parsed).filter((p): p is number => typeof p === "number");
    if (read.length) out[`unparsed${suffix}`] = read.filter((p) => p === 0).length;
  }
  const stats = items.map((s) => s.bleu).filter((v): v is Record<string, number | null> => !!v);
  // HiCUPID's public scoring computes smoothed BLEU per item (one prediction, one reference) and reports
  // the mean; the corpus BLEU over all items' counts is kept as a second, labelled figure.
  out.bleu = stats.length ? mean(stats.map((v) => hfBleuFromStats([bleuStats(v)]).bleu))! * 100 : null;
  out.bleuCorpus = stats.length ? hfBleuFromStats(stats.map(bleuStats)).bleu * 100 : null;
  out.rougeL = mean(items.map((s) => s.rouge?.rougeL)) === null ? null : mean(items.map((s) => s.rouge?.rougeL))! * 100;
  // The paper's retrieval figure is the hit rate (Table A2); recall (the share of an item's relevant
  // dialogues retrieved) is kept as a second figure.
  const hits = items.map((s) => s.retrieval).filter((v): v is Record<string, number | null> => !!v && typeof v.type === "number");
  Object.assign(out, hits.length ? hitMetrics(hitShares(hits.map((v) => ({ ...v, type: v.type! })))) : NO_HITS);
  out.recall = mean(items.map((s) => s.retrieval?.recall));
  if (judges > 1) {
    const pairs = items
      .map((s) => [judgeLabel(s[judgeScorer(0)]), judgeLabel(s[judgeScorer(1)])] as const)
      .filter((p): p is readonly [string, string] => p[0] !== null && p[1] !== null);
    out.kappa = pairs.length ? cohenKappa(pairs, { categories: ["win", "tie", "lose", "YES", "NO"] }).value : null;
  }
  return out;
}
