/**
 * The ledger write of the pipeline: every row a view's call leaves goes through here, so the view's
 * spend guard sees each one, a deferring view keeps its cache hits, and an accepted reply's row and
 * cache entry commit together (GroupCommit, ledger.ts).
 */
import type { View } from "./client-types";
import type { Core } from "./core";
import { transact } from "@/db/statements";
import { storeReply } from "./cache";
import { releaseClaim } from "./claims";
import { recordCall, type LedgerRow } from "./ledger";

/** One ledger row, written at once and shown to the view's spend guard. */
export function recordRow(core: Core, view: View, row: LedgerRow): void {
  recordCall(core.db, row);
  view.guard?.observe(row);
}

/**
 * A cache hit's row: kept for takeDeferredHits() by a deferring view (null), else written with the
 * other rows of this event-loop turn in one commit (resolves once committed). A hit costs nothing to
 * the guard. Each hit in its own commit was half the CPU of an all-cached run (bench/llm-client).
 */
export function recordHit(core: Core, view: View, row: LedgerRow): Promise<void> | null {
  if (view.deferHits) {
    core.deferred.push(row);
    return null;
  }
  return core.commits.write(() => recordCall(core.db, row));
}

export type CacheEntry = Parameters<typeof storeReply>[1];

/**
 * An accepted reply: its ledger row and cache entry in one commit, shared with the other replies of
 * this event-loop turn; resolves once committed. A cached reply that an updated schema rejects is
 * replaced by the accepted one.
 */
export function commitReply(core: Core, view: View, row: LedgerRow, entry: CacheEntry): Promise<void> {
  view.guard?.observe(row);
  return core.commits.write(() => {
    recordCall(core.db, row);
    storeReply(core.db, entry);
    // Other processes waiting for this request find the reply in the same commit (claims.ts).
    releaseClaim(core.db, entry.key);
  });
}

/** The same, written at once in the caller's transaction (a batch's replies). */
export function storeNow(core: Core, view: View, row: LedgerRow, entry: CacheEntry): void {
  transact(core.db, () => {
    recordRow(core, view, row);
    storeReply(core.db, entry);
  });
}
