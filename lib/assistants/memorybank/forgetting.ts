/**
 * MemoryBank's forgetting mechanism (Zhong et al., "MemoryBank"), the part that needs no model.
 *
 * Three named curves, each a public commit of zhongwanjun/MemoryBank-SiliconFriend (facts read from the
 * code, file memory_bank/memory_retrieval/forget_memory.py; docs/protocol.md cites the lines):
 *   - "as-written" (the default; commit 3869efc "update memory forgetting mechanism", line 36):
 *     `math.exp(-t / 5*S)`, which Python reads as e^(−t·S/5); strength S starts at 1 and each recall adds
 *     1 with no cap (line 69); no age limit (`total_date = 30`, line 50, is read nowhere); a day's summary
 *     is dropped only when all of that day's turns are gone (lines 129-131).
 *   - "intended": the same rules with e^(−t/(5S)), the curve the docstring describes (stronger memories
 *     fade more slowly).
 *   - "0cc7111" (the first upload, commit 0cc7111): e^(−t/S) (line 36) over three memory levels
 *     (S ≤ 3, lines 49 and 122) and nothing kept 30 days or more (line 83); summaries fade as pieces do.
 * t is whole calendar days since the piece was stored or last recalled (both commits subtract dates,
 * `_get_date_difference`). Whether a piece is kept: the public code draws `random.random()` against R;
 * here the draw is a deterministic uniform number from (seed, piece id, now), so a rerun forgets exactly
 * the same pieces ("sample" rule); or, without randomness, a piece is kept while R ≥ threshold.
 */
import { InvalidInputError } from "@/lib/errors";
import { mulberry32 } from "@/lib/random";

export const DAY_MS = 86_400_000;
export const INITIAL_STRENGTH = 1;
export const STRENGTH_INCREMENT = 1;
export const DEFAULT_FORGET_SEED = 42;

export const FORGET_CURVES = ["as-written", "intended", "0cc7111"] as const;
export type ForgetCurve = (typeof FORGET_CURVES)[number];
export const DEFAULT_FORGET_CURVE: ForgetCurve = "as-written";

/** What each curve implies besides its formula: the strength cap, the age limit, whether summaries fade on their own. */
export const CURVE_RULES: Record<ForgetCurve, { maxStrength: number; horizonDays: number; summariesFade: boolean }> = {
  "as-written": { maxStrength: Infinity, horizonDays: Infinity, summariesFade: false },
  intended: { maxStrength: Infinity, horizonDays: Infinity, summariesFade: false },
  "0cc7111": { maxStrength: 3, horizonDays: 30, summariesFade: true },
};

export interface MemoryTrace {
  id: string;
  /** S, in recalls + 1. */
  strength: number;
  /** When the memory was stored or last recalled (ms since the epoch). */
  lastRecalledAt: number;
}

export function newTrace(id: string, storedAt: number): MemoryTrace {
  return { id, strength: INITIAL_STRENGTH, lastRecalledAt: storedAt };
}

/** R after `elapsedDays` at strength S, by the curve (default: as written in 3869efc). */
export function retention(elapsedDays: number, strength: number, curve: ForgetCurve = DEFAULT_FORGET_CURVE): number {
  if (!(strength > 0)) throw new InvalidInputError(`forgetting: strength must be positive, got ${strength}`);
  const t = Math.max(0, elapsedDays);
  if (curve === "as-written") return Math.exp((-t / 5) * strength);
  if (curve === "intended") return Math.exp(-t / (5 * strength));
  return Math.exp(-t / strength);
}

/** Whole calendar days (UTC) from the last recall to `now`, as the public code subtracts dates. */
export function elapsedDays(trace: MemoryTrace, now: number): number {
  return Math.floor(now / DAY_MS) - Math.floor(trace.lastRecalledAt / DAY_MS);
}

/** A recall at time `at`: S grows by one (up to maxStrength: none, unless the curve or caller sets one) and the clock restarts. */
export function recall(trace: MemoryTrace, at: number, opts: { maxStrength?: number } = {}): MemoryTrace {
  const strength = Math.min(trace.strength + STRENGTH_INCREMENT, opts.maxStrength ?? Infinity);
  return { ...trace, strength, lastRecalledAt: at };
}

export type ForgetRule =
  { kind: "sample"; seed: number; curve?: ForgetCurve } | { kind: "threshold"; threshold: number; curve?: ForgetCurve };

export const DEFAULT_FORGET_RULE: ForgetRule = { kind: "sample", seed: DEFAULT_FORGET_SEED, curve: DEFAULT_FORGET_CURVE };

export const curveOf = (rule: ForgetRule): ForgetCurve => rule.curve ?? DEFAULT_FORGET_CURVE;

/** 32-bit FNV-1a of a string, to derive one PRNG seed per (seed, memory, time). */
function fnv1a(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** The uniform number in [0, 1) that decides one memory's fate under the "sample" rule. */
export function forgetDraw(seed: number, id: string, now: number): number {
  return mulberry32(fnv1a(`${seed}|${id}|${now}`))();
}

export interface ForgetDecision {
  trace: MemoryTrace;
  retention: number;
  kept: boolean;
}

/** Decides, for each memory, whether it is kept at time `now` (see the module comment). */
export function decideForgetting(traces: readonly MemoryTrace[], now: number, rule: ForgetRule = DEFAULT_FORGET_RULE): ForgetDecision[] {
  const curve = curveOf(rule);
  const { horizonDays } = CURVE_RULES[curve];
  if (rule.kind === "threshold" && !(rule.threshold >= 0 && rule.threshold <= 1)) {
    throw new InvalidInputError(`forgetting: threshold must be within [0, 1], got ${rule.threshold}`);
  }
  return traces.map((trace) => {
    const t = elapsedDays(trace, now);
    const r = retention(t, trace.strength, curve);
    let kept: boolean;
    if (t >= horizonDays) kept = false;
    else if (rule.kind === "threshold") kept = r >= rule.threshold;
    else kept = forgetDraw(rule.seed, trace.id, now) < r;
    return { trace, retention: r, kept };
  });
}
