/**
 * For the build benchmark and the dry run: how many model calls each baseline's algorithm implies for one user, and
 * the longest chain of calls that must wait for one another (sessions are built in order, and within
 * a session each method waits only where its algorithm needs the previous answer).
 * `entries` is the builder's count of stored entries by kind (ConditionMem's "yes" decisions are the
 * records it stored).
 */
import type { BuildEstimate, Session } from "../core/types";
import { toBaselineSession } from "./adapter";
import { recursumImpliedCalls } from "../recursum/engine";
import { conditionmemImpliedCalls } from "../conditionmem/engine";
import { memorybankImpliedCalls } from "../memorybank/engine";
import { ldAgentImpliedCalls } from "../ld-agent/engine";
import { flushOnArrival, pushAll, type CachedUtterance } from "../ld-agent/short-term";

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

/**
 * Before a build (the methods' estimateBuild): the same counts over the sessions still to build.
 * Builds go in session order, so the sessions already built are a prefix of the timeline.
 */
const pending = (ss: readonly Session[], done: ReadonlySet<number>) => ss.filter((s) => !done.has(s.seq));
const exactly = (assistant: number): BuildEstimate => ({ calls: { assistant: { min: assistant, max: assistant } } });

export const BASELINE_BUILD_ESTIMATES = {
  recursum: (ss: readonly Session[], done: ReadonlySet<number>) => exactly(recursumImpliedCalls(pending(ss, done).map(toBaselineSession))),
  memorybank: (ss: readonly Session[], done: ReadonlySet<number>) =>
    exactly(memorybankImpliedCalls(pending(ss, done).map(toBaselineSession))),
  /** The short-term cache carries over from the built prefix: what the whole timeline costs minus what the prefix did. */
  "ld-agent": (ss: readonly Session[], done: ReadonlySet<number>) => {
    const bs = ss.map(toBaselineSession);
    return exactly(ldAgentImpliedCalls(bs) - ldAgentImpliedCalls(bs.filter((s) => done.has(s.seq))));
  },
  /** One decision per user input (exact), one record call per "yes" (from none to every input). */
  conditionmem: (ss: readonly Session[], done: ReadonlySet<number>): BuildEstimate => {
    const inputs = pending(ss, done).reduce((n, s) => n + s.dialogue.length, 0);
    return {
      calls: { assistant: { min: conditionmemImpliedCalls(inputs, 0), max: conditionmemImpliedCalls(inputs, inputs) } },
      note: inputs ? `exact: ${inputs} decisions (one per user input); plus one record call per "yes" (0 to ${inputs})` : undefined,
    };
  },
};
