/**
 * Identical requests in flight shared across processes (issue 35): within one process an identical call
 * joins the one in flight (client.ts, core.inflight), but a `pal run --workers N` run, or a CLI run beside
 * the server's worker, has other processes on the same database. Before sending, a process claims the
 * request's cache key (a row in llm_claims); a process that finds the key claimed by another waits until
 * the reply is in llm_cache and takes it as a cache hit, so the endpoint is paid once.
 *
 * - The claim is one indexed INSERT, taken only if the cache does not already hold the reply (in the same
 *   statement, so a reply committed between the cache lookup and the claim is not asked for again).
 * - It is deleted in the commit that stores the reply (ledger-write.ts: no extra transaction), or when the
 *   request fails or is abandoned (client.ts).
 * - A waiter looks at the cache and the claim with a backing-off pause (10 ms doubling to 500 ms; no event
 *   crosses processes). It takes the claim over when its owner's process is gone (same machine: its pid),
 *   or when the owner stopped renewing it (another machine, a hung process): the owner renews its claims
 *   every RENEW_MS in one UPDATE, so a slow request keeps them.
 * - A failed request leaves no reply: its waiters then send the request themselves (one of them claims
 *   it, the others wait again), as their own calls, with their own retries and ledger rows. The failure
 *   may be the owner's alone (its run paused, its group cancelled, its process draining).
 */
import type { Db } from "@/db/client";
import { stmt } from "@/db/statements";
import { holderIsDeadLocal, leaseHolderId } from "@/lib/lease-holder";
import { cachedReply } from "./cache";

/** A claim not renewed for this long is taken over (its owner hung, or died on another machine). */
export const CLAIM_LEASE_MS = 60_000;
const RENEW_MS = 15_000;
const FIRST_POLL_MS = 10;
const MAX_POLL_MS = 500;

let ownerId: string | undefined;
/** This process's name on its claims: one per process, so its pid tells a waiter whether it still runs. */
export const claimOwner = (): string => (ownerId ??= leaseHolderId());

type Held = { keys: Set<string>; timer: ReturnType<typeof setInterval> | null };
const heldByDb = new WeakMap<Db, Held>();

function heldOf(db: Db): Held {
  let h = heldByDb.get(db);
  if (!h) heldByDb.set(db, (h = { keys: new Set(), timer: null }));
  return h;
}

function hold(db: Db, key: string): void {
  const h = heldOf(db);
  h.keys.add(key);
  if (h.timer) return;
  // One timer per database for the life of the process, idle while nothing is held.
  h.timer = setInterval(() => {
    if (!h.keys.size) return;
    try {
      stmt(db, "UPDATE llm_claims SET lease_until = ? WHERE owner = ? AND key IN (SELECT value FROM json_each(?))").run(
        Date.now() + CLAIM_LEASE_MS,
        claimOwner(),
        JSON.stringify([...h.keys]),
      );
    } catch {
      // The database was closed: nothing left to renew.
      clearInterval(h.timer!);
      h.timer = null;
    }
  }, RENEW_MS);
  h.timer.unref();
}

/**
 * Claims `key` for this process: true when it is now this process's to send. False when another
 * process holds it, or (unless `evenIfCached`) when the cache already holds the reply.
 */
export function tryClaim(db: Db, key: string, evenIfCached = false, now = Date.now()): boolean {
  const r = evenIfCached
    ? stmt(db, "INSERT OR IGNORE INTO llm_claims (key, owner, lease_until) VALUES (?, ?, ?)").run(key, claimOwner(), now + CLAIM_LEASE_MS)
    : stmt(
        db,
        "INSERT OR IGNORE INTO llm_claims (key, owner, lease_until) SELECT ?, ?, ? WHERE NOT EXISTS (SELECT 1 FROM llm_cache WHERE key = ?)",
      ).run(key, claimOwner(), now + CLAIM_LEASE_MS, key);
  if (r.changes !== 1) return false;
  hold(db, key);
  return true;
}

/** Whether this process holds the claim on `key`. */
export const holdsClaim = (db: Db, key: string): boolean => heldByDb.get(db)?.keys.has(key) ?? false;

/**
 * Gives the claim back, if this process holds it: inside the commit that stores the reply, or after a
 * failure. Waiters then find the reply, or no claim and send the request themselves.
 */
export function releaseClaim(db: Db, key: string): void {
  if (!heldByDb.get(db)?.keys.delete(key) || !db.$client.open) return;
  stmt(db, "DELETE FROM llm_claims WHERE key = ? AND owner = ?").run(key, claimOwner());
}

/** The claim on `key` taken from an owner that is gone or stopped renewing; false if another waiter was first. */
function takeOver(db: Db, key: string, from: string, now: number): boolean {
  const r = stmt(db, "UPDATE llm_claims SET owner = ?, lease_until = ? WHERE key = ? AND owner = ?").run(
    claimOwner(),
    now + CLAIM_LEASE_MS,
    key,
    from,
  );
  if (r.changes !== 1) return false;
  hold(db, key);
  return true;
}

/**
 * What a process that could not claim `key` does: waits until the reply is cached ({ text }), or the
 * claim is this process's to send ("mine": taken, taken over, or given up by a failed owner). With
 * `skipCache` a cached reply is not wanted (the caller's schema rejected it): it waits for the claim.
 */
export async function awaitClaim(db: Db, key: string, skipCache = false): Promise<{ text: string } | "mine"> {
  let pause = 0;
  for (;;) {
    if (pause) await new Promise((r) => setTimeout(r, pause));
    pause = Math.min(Math.max(pause * 2, FIRST_POLL_MS), MAX_POLL_MS);
    const text = skipCache ? null : cachedReply(db, key);
    if (text !== null) return { text };
    const row = stmt(db, "SELECT owner, lease_until AS leaseUntil FROM llm_claims WHERE key = ?").get(key) as
      { owner: string; leaseUntil: number } | undefined;
    const now = Date.now();
    if (!row) {
      // Given up without a reply (the owner's request failed), or committed since the cache was read.
      if (tryClaim(db, key, skipCache, now)) return "mine";
      pause = 0;
      continue;
    }
    // This process's own claim that no call of it holds (a commit that failed after releasing it) is stale too.
    const stale = row.leaseUntil < now || holderIsDeadLocal(row.owner) || (row.owner === claimOwner() && !holdsClaim(db, key));
    if (stale && takeOver(db, key, row.owner, now)) return "mine";
  }
}
