/**
 * MemoryBank's memory strength bookkeeping. Each memory piece has a strength S (1 when stored) and
 * the time it was last recalled; its retention decays with the time since then (Ebbinghaus, see
 * forgetting.ts). A recalled piece gets S + 1 and its clock resets to the moment of recall.
 *
 * Recall happens while building: the user's utterances of session j are used as queries against the
 * memory built before j, so what that session brought back is reinforced. Answering never changes
 * memory, which keeps every task's result independent of the order tasks run in.
 */
export type Strength = { strength: number; lastRecalledAt: number };

export const INITIAL_STRENGTH = 1;

export const stored = (at: number): Strength => ({ strength: INITIAL_STRENGTH, lastRecalledAt: at });

export const recalled = (s: Strength, at: number): Strength => ({ strength: s.strength + 1, lastRecalledAt: at });

/** Elapsed time in days, the unit MemoryBank's forgetting curve is written in. */
export const elapsedDays = (s: Strength, at: number) => Math.max(0, at - s.lastRecalledAt) / 86_400_000;
