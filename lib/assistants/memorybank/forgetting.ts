/**
 * MemoryBank's forgetting mechanism (Zhong et al., "MemoryBank"), the part that needs no model.
 *
 * Retention follows an Ebbinghaus-style curve R = e^(−t/S):
 *   t  time since the memory was stored or last recalled, in DAYS (the unit of the paper's public
 *      code, which compares calendar dates); here t is fractional, from millisecond timestamps;
 *   S  memory strength: 1 when the memory is first stored; each recall adds 1 and resets t to 0.
 * The public code keeps three strength levels (S ∈ {1, 2, 3}: memory_level = 3, a recall moves a memory
 * one level up, never past the top); the paper states no cap, so the public code's cap is the default
 * (`MAX_STRENGTH` = 3, `maxStrength` changes it).
 *
 * Which memories are forgotten at time `now`:
 *   - a memory not recalled for `horizonDays` (30, as in the public code) or more is forgotten;
 *   - otherwise the public code keeps it with probability R (one random draw per memory). Here that
 *     draw is a deterministic uniform number from (seed, memory id, now), so a rerun forgets exactly
 *     the same memories and the result does not depend on the order of the list ("sample" rule);
 *   - or, without randomness, a memory is kept while R ≥ threshold ("threshold" rule).
 */
import { InvalidInputError } from "@/lib/errors";
import { mulberry32 } from "@/lib/random";

export const DAY_MS = 86_400_000;
export const INITIAL_STRENGTH = 1;
export const STRENGTH_INCREMENT = 1;
export const FORGET_HORIZON_DAYS = 30;
/** The public code's three memory levels: S never exceeds 3. */
export const MAX_STRENGTH = 3;
export const DEFAULT_FORGET_SEED = 42;

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

/** R = e^(−t/S), t in days. */
export function retention(elapsedDays: number, strength: number): number {
  if (!(strength > 0)) throw new InvalidInputError(`forgetting: strength must be positive, got ${strength}`);
  return Math.exp(-Math.max(0, elapsedDays) / strength);
}

export function elapsedDays(trace: MemoryTrace, now: number): number {
  return (now - trace.lastRecalledAt) / DAY_MS;
}

/** A recall at time `at`: S grows by one (up to maxStrength, default the public code's 3) and the clock restarts. */
export function recall(trace: MemoryTrace, at: number, opts: { maxStrength?: number } = {}): MemoryTrace {
  const strength = Math.min(trace.strength + STRENGTH_INCREMENT, opts.maxStrength ?? MAX_STRENGTH);
  return { ...trace, strength, lastRecalledAt: at };
}

export type ForgetRule =
  { kind: "sample"; seed: number; horizonDays?: number } | { kind: "threshold"; threshold: number; horizonDays?: number };

export const DEFAULT_FORGET_RULE: ForgetRule = { kind: "sample", seed: DEFAULT_FORGET_SEED, horizonDays: FORGET_HORIZON_DAYS };

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
  const horizon = rule.horizonDays ?? FORGET_HORIZON_DAYS;
  if (rule.kind === "threshold" && !(rule.threshold >= 0 && rule.threshold <= 1)) {
    throw new InvalidInputError(`forgetting: threshold must be within [0, 1], got ${rule.threshold}`);
  }
  return traces.map((trace) => {
    const t = elapsedDays(trace, now);
    const r = retention(t, trace.strength);
    let kept: boolean;
    if (t >= horizon) kept = false;
    else if (rule.kind === "threshold") kept = r >= rule.threshold;
    else kept = forgetDraw(rule.seed, trace.id, now) < r;
    return { trace, retention: r, kept };
  });
}
