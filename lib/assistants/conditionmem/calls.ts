/** ConditionMem's build calls (baselines/calls.ts): one decision per user input, one record per "yes". */
import type { BuildEstimate, Session } from "../core/types";
import { pending, type Planner } from "../baselines/calls";
import { conditionmemImpliedCalls } from "./engine";

export const conditionmemPlan: Planner = (ss, entries) => {
  const inputs = ss.reduce((n, s) => n + s.dialogue.length, 0);
  // Upper bound on the chain: decision then record in every session with dialogue.
  return { calls: conditionmemImpliedCalls(inputs, entries.record ?? 0), chain: 2 * ss.filter((s) => s.dialogue.length).length };
};

/** One decision per user input (exact), one record call per "yes" (from none to every input). */
export const conditionmemEstimate = (ss: readonly Session[], done: ReadonlySet<number>): BuildEstimate => {
  const inputs = pending(ss, done).reduce((n, s) => n + s.dialogue.length, 0);
  return {
    calls: { assistant: { min: conditionmemImpliedCalls(inputs, 0), max: conditionmemImpliedCalls(inputs, inputs) } },
    note: inputs ? `exact: ${inputs} decisions (one per user input); plus one record call per "yes" (0 to ${inputs})` : undefined,
  };
};
