/** MemoryBank's build calls (baselines/calls.ts): four per session with dialogue. */
import type { Session } from "../core/types";
import { toBaselineSession } from "../baselines/adapter";
import { exactly, pending, type Planner } from "../baselines/calls";
import { memorybankImpliedCalls } from "./engine";

export const memorybankPlan: Planner = (ss) => {
  const bs = ss.map(toBaselineSession);
  // Event summaries and daily portraits read one session alone (started ahead); each global
  // summary and portrait waits for the previous one: n sessions with dialogue chain n + 1 calls.
  const n = bs.filter((s) => s.turns.length).length;
  return { calls: memorybankImpliedCalls(bs), chain: n ? n + 1 : 0 };
};

export const memorybankEstimate = (ss: readonly Session[], done: ReadonlySet<number>) =>
  exactly(memorybankImpliedCalls(pending(ss, done).map(toBaselineSession)));
