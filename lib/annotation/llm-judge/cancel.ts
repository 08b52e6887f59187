/**
 * Judge runs a person asked to cancel while they run (issue 44.3): the run's spend guard asks this set
 * before every attempt, so no further request goes out. Process-wide (the server's runs live here).
 */
export const CANCELLED = "cancelled";

export const cancelRequested: Set<number> = ((globalThis as { __palJudgeCancels?: Set<number> }).__palJudgeCancels ??= new Set());
