/**
 * Requests/min and tokens/min of a defined endpoint, honoured by every process on the database (the
 * server's worker and CLI runs): each request let through is a row in endpoint_usage, taken in an
 * IMMEDIATE transaction so two processes never both take the last place.
 *
 * Requests/min is a sliding window sized so bursts stay short: `k = max(1, floor(rpm/60))` requests
 * in any window of `60 000·k/rpm` ms (one second's worth at 60/min and above). That bounds the rate
 * over every span, not only per minute, so 120/min is never 120 at once and then a wait.
 * Tokens/min is approximate: the tokens of the replies that came back in the last minute; a request
 * waits while they reach the limit (requests in flight are not counted until they finish).
 * In flight: a row holds its place until the reply (or error) comes back, so `concurrency` bounds the
 * requests open at once over all processes; a killed process's places lapse after the endpoint's
 * timeout (in_flight_until), so they are not held for ever.
 */
import type { Db } from "@/db/client";
import { stmt } from "@/db/statements";
import { envNumber } from "@/lib/config";
import type { EndpointLimits } from "./endpoints";

const MINUTE = 60_000;
/** How often a request waiting for another process's place looks again (no event crosses processes). */
const IN_FLIGHT_POLL_MS = 20;
/** Added to the request timeout before a place held by a vanished process lapses. */
const LEASE_MARGIN_MS = 10_000;

type Limited = Pick<EndpointLimits, "id" | "rpm" | "tpm" | "concurrency" | "timeoutMs">;

/** The requests/min window: k requests per `windowMs`. */
export function rpmWindow(rpm: number): { k: number; windowMs: number } {
  const k = Math.max(1, Math.floor(rpm / 60));
  return { k, windowMs: Math.ceil((MINUTE * k) / rpm) };
}

/**
 * One attempt to take a place: the usage row's id, or how long to wait before trying again. Rows
 * older than a minute are dropped on the way.
 */
export function tryAcquire(
  db: Db,
  e: Pick<Limited, "id" | "rpm" | "tpm"> & Partial<Pick<Limited, "concurrency" | "timeoutMs">>,
  now = Date.now(),
): { id: number } | { waitMs: number } {
  return db.$client
    .transaction(() => {
      stmt(db, "DELETE FROM endpoint_usage WHERE endpoint_id = ? AND at < ? AND (in_flight_until IS NULL OR in_flight_until < ?)").run(
        e.id,
        now - MINUTE,
        now,
      );
      if (e.concurrency) {
        const open = stmt(db, "SELECT count(*) AS n FROM endpoint_usage WHERE endpoint_id = ? AND in_flight_until > ?").get(e.id, now) as {
          n: number;
        };
        if (open.n >= e.concurrency) return { waitMs: IN_FLIGHT_POLL_MS };
      }
      if (e.rpm) {
        const { k, windowMs } = rpmWindow(e.rpm);
        const recent = stmt(db, "SELECT at FROM endpoint_usage WHERE endpoint_id = ? AND at > ? ORDER BY at DESC LIMIT ?").all(
          e.id,
          now - windowMs,
          k,
        ) as Array<{ at: number }>;
        // Full: wait until the oldest of the last k leaves the window.
        if (recent.length >= k) return { waitMs: Math.max(1, recent[k - 1].at + windowMs - now + 1) };
      }
      if (e.tpm) {
        const used = stmt(
          db,
          "SELECT coalesce(sum(tokens), 0) AS t, min(at) AS first FROM endpoint_usage WHERE endpoint_id = ? AND tokens > 0",
        ).get(e.id) as { t: number; first: number | null };
        if (used.t >= e.tpm && used.first !== null) return { waitMs: Math.max(1, used.first + MINUTE - now + 1) };
      }
      const until = e.concurrency ? now + (e.timeoutMs ?? envNumber("PAL_LLM_TIMEOUT_MS", 120_000)) + LEASE_MARGIN_MS : null;
      const r = stmt(db, "INSERT INTO endpoint_usage (endpoint_id, at, in_flight_until) VALUES (?, ?, ?)").run(e.id, now, until);
      return { id: Number(r.lastInsertRowid) };
    })
    .immediate();
}

/**
 * Waits for a place under the endpoint's limits; the id is for release. Null: no limit to honour
 * across processes (an endpoint without its own in-flight limit uses PAL_LLM_CONCURRENCY per process).
 */
export async function acquire(db: Db, e: EndpointLimits): Promise<number | null> {
  if (!e.rpm && !e.tpm && !e.concurrency) return null;
  for (;;) {
    const r = tryAcquire(db, e);
    if ("id" in r) return r.id;
    // Another process may take the place first: try again after the wait, never busy-loop.
    await new Promise((res) => setTimeout(res, Math.min(r.waitMs, 5_000)));
  }
}

/** The tokens a request used, counted against tokens/min for the rest of its minute. */
export function recordTokens(db: Db, usageId: number | null, tokens: number): void {
  if (usageId === null || tokens <= 0) return;
  stmt(db, "UPDATE endpoint_usage SET tokens = ? WHERE id = ?").run(tokens, usageId);
}

/**
 * The request came back (answered or failed): its in-flight place is free, and its tokens count
 * against tokens/min. A row that only held a place (no per-minute limit) is deleted outright.
 */
export function release(db: Db, e: Pick<Limited, "rpm" | "tpm">, usageId: number | null, tokens: number): void {
  if (usageId === null) return;
  if (!e.rpm && !e.tpm) stmt(db, "DELETE FROM endpoint_usage WHERE id = ?").run(usageId);
  else stmt(db, "UPDATE endpoint_usage SET tokens = ?, in_flight_until = NULL WHERE id = ?").run(Math.max(0, tokens), usageId);
}
