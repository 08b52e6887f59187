/** LD-Agent's build calls (baselines/calls.ts): persona calls and the short-term cache's flushes. */
import type { Session } from "../core/types";
import { toBaselineSession } from "../baselines/adapter";
import { exactly, type Planner } from "../baselines/calls";
import { ldAgentImpliedCalls } from "./engine";
import { flushOnArrival, pushAll, type CachedUtterance } from "./short-term";

export const ldAgentPlan: Planner = (ss) => {
  const bs = ss.map(toBaselineSession);
  let cache: CachedUtterance[] = [];
  let chain = 0;
  for (const s of bs) {
    const a = flushOnArrival(cache, s.at);
    if (a.flushed) chain++;
    if (s.turns.length) chain++;
    cache = pushAll(
      a.cache,
      s.turns.map((t) => ({ at: s.at, speaker: "user" as const, text: t.user, seq: s.seq })),
    ).cache;
  }
  return { calls: ldAgentImpliedCalls(bs), chain };
};

/** The short-term cache carries over from the built prefix: what the whole timeline costs minus what the prefix did. */
export const ldAgentEstimate = (ss: readonly Session[], done: ReadonlySet<number>) => {
  const bs = ss.map(toBaselineSession);
  return exactly(ldAgentImpliedCalls(bs) - ldAgentImpliedCalls(bs.filter((s) => done.has(s.seq))));
};
