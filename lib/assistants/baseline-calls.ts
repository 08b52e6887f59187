/**
 * For the build benchmark: how many model calls each baseline's algorithm implies for one user, and
 * the longest chain of calls that must wait for one another (sessions are built in order, and within
 * a session each method waits only where its algorithm needs the previous answer).
 * `entries` is the builder's count of stored entries by kind (ConditionMem's "yes" decisions are the
 * records it stored).
 */
import type { Session } from "./types";
import { toBaselineSession } from "./baseline-adapter";
import { recursumImpliedCalls } from "./recursum/engine";
import { conditionmemImpliedCalls } from "./conditionmem/engine";
import { memorybankImpliedCalls } from "./memorybank/engine";
import { ldAgentImpliedCalls } from "./ld-agent/engine";
import { flushOnArrival, pushAll, type CachedUtterance } from "./ld-agent/short-term";

export type CallPlan = { calls: number; chain: number };
type Planner = (sessions: readonly Session[], entries: Readonly<Record<string, number>>) => CallPlan;

const none: Planner = () => ({ calls: 0, chain: 0 });

export const BASELINE_CALL_PLANS: Record<string, Planner> = {
  "turn-rag": none,
  "session-rag": none,
  recursum: (ss) => {
    const bs = ss.map(toBaselineSession);
    return { calls: recursumImpliedCalls(bs), chain: bs.filter((s) => s.turns.length || s.logs.length).length };
  },
  conditionmem: (ss, entries) => {
    const inputs = ss.reduce((n, s) => n + s.dialogue.length, 0);
    // Upper bound on the chain: decision then record in every session with dialogue.
    return { calls: conditionmemImpliedCalls(inputs, entries.record ?? 0), chain: 2 * ss.filter((s) => s.dialogue.length).length };
  },
  memorybank: (ss) => {
    const bs = ss.map(toBaselineSession);
    // Event summaries and daily portraits read one session alone (started ahead); each global
    // summary and portrait waits for the previous one: n sessions with dialogue chain n + 1 calls.
    const n = bs.filter((s) => s.turns.length).length;
    return { calls: memorybankImpliedCalls(bs), chain: n ? n + 1 : 0 };
  },
  "ld-agent": (ss) => {
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
  },
};
