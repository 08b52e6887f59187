/**
 * LD-Agent's short-term memory: a cache of the current conversation's timestamped utterances. When
 * a new utterance arrives more than β after the last cached one, the cache is one finished event:
 * it is flushed (to be summarised into the long-term event memory) and restarted with the new
 * utterance. Pure: the caller makes the summary call for each flushed batch.
 */
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
export const DEFAULT_BETA_MS = 60 * 60 * 1000;

export type PushResult = { cache: CachedUtterance[]; flushed: CachedUtterance[] | null };

/** Adds one utterance; returns the new cache and, when the gap exceeded β, the batch to summarise. */
export function pushUtterance(cache: readonly CachedUtterance[], u: CachedUtterance, betaMs = DEFAULT_BETA_MS): PushResult {
  const last = cache[cache.length - 1];
  if (last && u.at - last.at > betaMs) return { cache: [u], flushed: [...cache] };
  return { cache: [...cache, u], flushed: null };
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
  const last = cache[cache.length - 1];
  if (last && at - last.at > betaMs) return { cache: [], flushed: [...cache] };
  return { cache: [...cache], flushed: null };
}
