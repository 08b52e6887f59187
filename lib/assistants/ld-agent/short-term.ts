/**
 * LD-Agent's short-term memory: a cache of the current conversation's timestamped utterances, with
 * who said them and in which session. The flush rule itself (a gap of more than β) is score.ts's
 * pushUtterance; this keeps the speaker and session with each cached utterance and adds the flush a
 * session's arrival causes. Pure: the caller makes the summary call for each flushed batch.
 */
import { LD_AGENT_BETA_SECONDS, pushUtterance as pushRule } from "./score";

export type CachedUtterance = {
  /** Epoch ms. */
  at: number;
  speaker: "user" | "assistant";
  text: string;
  /** The session (timeline position) the utterance came from. */
  seq: number;
};

/**
 * β: one hour, the gap after which LD-Agent's reference implementation treats the conversation as
 * a new session. PAL-Set and HiCUPID sessions are days apart and carry one timestamp each, so every
 * session becomes one event.
 */
export const DEFAULT_BETA_MS = LD_AGENT_BETA_SECONDS * 1000;

const rule = (u: { at: number; text: string }) => ({ time: u.at, text: u.text });

export type PushResult = { cache: CachedUtterance[]; flushed: CachedUtterance[] | null };

/** Adds one utterance; returns the new cache and, when the gap exceeded β, the batch to summarise. */
export function pushUtterance(cache: readonly CachedUtterance[], u: CachedUtterance, betaMs = DEFAULT_BETA_MS): PushResult {
  const r = pushRule(cache.map(rule), rule(u), betaMs / 1000);
  return r.flushed ? { cache: [u], flushed: [...cache] } : { cache: [...cache, u], flushed: null };
}

/** Feeds many utterances in order; returns the final cache and every batch flushed on the way. */
export function pushAll(cache: readonly CachedUtterance[], us: readonly CachedUtterance[], betaMs = DEFAULT_BETA_MS) {
  let current: CachedUtterance[] = [...cache];
  const flushed: CachedUtterance[][] = [];
  for (const u of us) {
    const r = pushUtterance(current, u, betaMs);
    current = r.cache;
    if (r.flushed) flushed.push(r.flushed);
  }
  return { cache: current, flushed };
}

/**
 * The flush a session's arrival causes, without adding the session's own utterances: what answering
 * in that session may already rely on (it is made only of earlier sessions).
 */
export function flushOnArrival(cache: readonly CachedUtterance[], at: number, betaMs = DEFAULT_BETA_MS): PushResult {
  const r = pushRule(cache.map(rule), { time: at, text: "" }, betaMs / 1000);
  return r.flushed ? { cache: [], flushed: [...cache] } : { cache: [...cache], flushed: null };
}
