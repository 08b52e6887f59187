/**
 * Cache lookup, and what a reply found without paying for it leaves: prefetch groups and deferred
 * hits. A hit is recorded once per call the algorithm makes: a prefetch's hit records nothing, and the
 * call a prefetch paid for records nothing for the reply it finds (the prefetch recorded its attempts);
 * a deferring view keeps its hit rows until takeDeferredHits().
 */
import { cachedReply } from "./cache";
import { awaitClaim } from "./claims";
import { ZERO_USAGE, type ChatResult, type View } from "./client-types";
import type { Core } from "./core";
import { checkReply } from "./json";
import { sentParams, type LedgerRow, type Origin } from "./ledger";
import { recordHit } from "./ledger-write";
import type { Call } from "./request";

/** A found reply: at once, or once its hit row has committed (ledger-write.ts). */
export type Found<T> = ChatResult<T> | Promise<ChatResult<T>>;

/** A reply found in the cache or shared with an identical call in flight, validated; null: ask the model. */
export function answerFound<T>(core: Core, view: View, call: Call<T>, text: string, how: "cache" | "shared" | "process"): Found<T> | null {
  const checked = checkReply(text, call.o);
  if (!checked.ok) return null; // cached under an older schema or parser: ask again
  const result = { value: checked.value, text, cacheHit: true, cacheKey: call.cacheKey, usage: ZERO_USAGE };
  if (view.prefetch || core.prefetchPaid.delete(call.cacheKey)) return result;
  core.stats.cacheHits++;
  const row: LedgerRow = {
    ...call.base,
    cacheHit: true,
    attempt: 1,
    status: "ok",
    error:
      how === "shared"
        ? "shared with a concurrent identical call"
        : how === "process"
          ? "shared with another process's identical call"
          : null,
    sent: sentParams(call.params),
  };
  const written = recordHit(core, view, row);
  return written ? written.then(() => result) : result;
}

/** The persistent cache's answer to the call, if it has a valid one. */
export function cacheLookup<T>(core: Core, view: View, call: Call<T>): Found<T> | null {
  const cached = cachedReply(core.db, call.cacheKey);
  return cached === null ? null : answerFound(core, view, call, cached, "cache");
}

/** Answers an identical call in flight, once it is answered (lending it this view's priority while it waits for a slot). */
export async function joinInFlight<T>(
  core: Core,
  view: View,
  call: Call<T>,
  pending: Promise<{ text: string }>,
): Promise<ChatResult<T> | null> {
  core.queues.raise(call.cacheKey, view.priority);
  const shared = await pending;
  return answerFound(core, view, call, shared.text, "shared");
}

/**
 * The call whose key another process claimed (claims.ts): that process's reply, once cached, as this
 * call's cache hit; null when the claim became this process's (the owner failed or died): send it.
 */
export async function shareOtherProcess<T>(core: Core, view: View, call: Call<T>): Promise<ChatResult<T> | null> {
  let skipCache = false;
  for (;;) {
    const got = await awaitClaim(core.db, call.cacheKey, skipCache);
    if (got === "mine") return null;
    const found = answerFound(core, view, call, got.text, "process");
    if (found) return found;
    skipCache = true; // cached under an older schema or parser: this process asks again
  }
}

/** A prefetching view's accepted reply: the identical call made later finds it and records nothing. */
export function notePaid(core: Core, view: View, cacheKey: string): void {
  if (view.prefetch) core.prefetchPaid.add(cacheKey);
}

const sameOrigin = (a: Origin, b: Origin) =>
  (a.memoryVersionId ?? null) === (b.memoryVersionId ?? null) &&
  (a.jobId ?? null) === (b.jobId ?? null) &&
  (a.judgeRunId ?? null) === (b.judgeRunId ?? null);

/** The deferred cache-hit rows of one origin, handed over once. */
export function takeDeferred(core: Core, origin: Origin): LedgerRow[] {
  const mine = core.deferred.filter((r) => sameOrigin(r.origin, origin));
  if (mine.length) core.deferred = core.deferred.filter((r) => !sameOrigin(r.origin, origin));
  return mine;
}

/** How many deferred rows of one origin are not yet handed over. */
export function deferredCount(core: Core, origin: Origin): number {
  return core.deferred.filter((r) => sameOrigin(r.origin, origin)).length;
}
