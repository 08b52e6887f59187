/**
 * What the baselines' call counts share. Each baseline states its own counts in `<method>/calls.ts`:
 * a plan (for the build benchmark: how many model calls its algorithm implies for one user, and the
 * longest chain of calls that must wait for one another; sessions are built in order, and within a
 * session each method waits only where its algorithm needs the previous answer) and an estimate (for
 * the dry run: the same counts over the sessions still to build). `entries` is the builder's count of
 * stored entries by kind (ConditionMem's "yes" decisions are the records it stored).
 */
import type { BuildEstimate, Session } from "../core/types";

export type CallPlan = { calls: number; chain: number };
export type Planner = (sessions: readonly Session[], entries: Readonly<Record<string, number>>) => CallPlan;

/** A method whose build makes no model call. */
export const noCalls: Planner = () => ({ calls: 0, chain: 0 });

/** Builds go in session order, so the sessions already built are a prefix of the timeline. */
export const pending = (ss: readonly Session[], done: ReadonlySet<number>) => ss.filter((s) => !done.has(s.seq));
export const exactly = (assistant: number): BuildEstimate => ({ calls: { assistant: { min: assistant, max: assistant } } });
