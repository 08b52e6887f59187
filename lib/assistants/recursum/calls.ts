/** RecurSum's build calls (baselines/calls.ts): one per session with dialogue and one per session with logs. */
import type { Session } from "../core/types";
import { toBaselineSession } from "../baselines/adapter";
import { exactly, pending, type Planner } from "../baselines/calls";
import { recursumImpliedCalls } from "./engine";

export const recursumPlan: Planner = (ss) => {
  const bs = ss.map(toBaselineSession);
  return { calls: recursumImpliedCalls(bs), chain: bs.filter((s) => s.turns.length || s.logs.length).length };
};

export const recursumEstimate = (ss: readonly Session[], done: ReadonlySet<number>) =>
  exactly(recursumImpliedCalls(pending(ss, done).map(toBaselineSession)));
