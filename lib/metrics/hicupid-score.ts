/**
 * HiCUPID judge scores (docs/metrics.md; HiCUPID paper §4). Persona and profile (multi-info) items are judged A/B/Tie
 * against the personalized reference answer, with the model's slot randomised and recorded:
 * score = 100 × (share of model wins + 0.5 × share of ties), so 50 is parity with the reference.
 * Schedule items are judged YES/NO: score = 100 × share of YES.
 * Total = persona·25/40 + (schedule/2)·10/40 + profile·5/40 (schedule halved to the 0..50 parity range).
 */

export type AbVerdict = "A" | "B" | "Tie";
export type Slot = "A" | "B";
export type AbOutcome = "win" | "tie" | "lose";

/** The model's outcome for one A/B/Tie verdict, given the slot its answer was shown in. */
export function abOutcome(verdict: AbVerdict, modelSlot: Slot): AbOutcome {
  if (verdict === "Tie") return "tie";
  if (verdict !== "A" && verdict !== "B") throw new RangeError(`verdict must be A, B or Tie, got ${String(verdict)}`);
  if (modelSlot !== "A" && modelSlot !== "B") throw new RangeError(`model slot must be A or B, got ${String(modelSlot)}`);
  return verdict === modelSlot ? "win" : "lose";
}

export interface AbScore {
  /** 0..100, null with no items. */
  score: number | null;
  win: number;
  tie: number;
  lose: number;
  n: number;
}

/** Persona or profile score from the judged items. */
export function abScore(items: ReadonlyArray<{ verdict: AbVerdict; modelSlot: Slot }>): AbScore {
  let win = 0;
  let tie = 0;
  let lose = 0;
  for (const it of items) {
    const o = abOutcome(it.verdict, it.modelSlot);
    if (o === "win") win++;
    else if (o === "tie") tie++;
    else lose++;
  }
  const n = items.length;
  return { score: n ? (100 * (win + 0.5 * tie)) / n : null, win, tie, lose, n };
}

export interface ScheduleScore {
  /** 0..100, null with no items. */
  score: number | null;
  yes: number;
  no: number;
  n: number;
}

/** Schedule score: share of YES × 100. */
export function scheduleScore(verdicts: ReadonlyArray<"YES" | "NO">): ScheduleScore {
  let yes = 0;
  let no = 0;
  for (const v of verdicts) {
    if (v === "YES") yes++;
    else if (v === "NO") no++;
    else throw new RangeError(`schedule verdict must be YES or NO, got ${String(v)}`);
  }
  const n = verdicts.length;
  return { score: n ? (100 * yes) / n : null, yes, no, n };
}

/** HiCUPID's weighted Total; null if any part is missing. */
export function hicupidTotal(scores: { persona: number | null; schedule: number | null; profile: number | null }): number | null {
  const { persona, schedule, profile } = scores;
  if (persona === null || schedule === null || profile === null) return null;
  return (persona * 25) / 40 + ((schedule / 2) * 10) / 40 + (profile * 5) / 40;
}
