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
 */
import type { Db } from "@/db/client";
import { stmt } from "@/db/statements";
import type { EndpointLimits } from "./endpoints";

const MINUTE = 60_000;

/** The requests/min window: k requests per `windowMs`. */
export function rpmWindow(rpm: number): { k: number; windowMs: number } {
  const k = Math.max(1, Math.floor(rpm / 60));
  return { k, windowMs: Math.ceil((MINUTE * k) / rpm) };
}

/**
 * One attempt to take a place: the usage row's id, or how long to wait before trying again. Rows
 * older than a minute are dropped on the way.
 */
export function tryAcquire(db: Db, e: Pick<EndpointLimits, "id" | "rpm" | "tpm">, now = Date.now()): { id: number } | { waitMs: number } {
  return db.$client
    .transaction(() => {
      stmt(db, "DELETE FROM endpoint_usage WHERE endpoint_id = ? AND at < ?").run(e.id, now - MINUTE);
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
      const r = stmt(db, "INSERT INTO endpoint_usage (endpoint_id, at) VALUES (?, ?)").run(e.id, now);
      return { id: Number(r.lastInsertRowid) };
    })
    .immediate();
}

/** Waits for a place under the endpoint's limits; the id is for recordTokens. Null: no limit to honour. */
export async function acquire(db: Db, e: EndpointLimits): Promise<number | null> {
  if (!e.rpm && !e.tpm) return null;
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
