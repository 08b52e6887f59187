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
import { stmt, transact } from "@/db/statements";
import { envNumber } from "@/lib/config";
import type { EndpointLimits } from "./endpoints";

const MINUTE = 60_000;
/** How often a request waiting for another process's place looks again (no event crosses processes). */
const IN_FLIGHT_POLL_MS = 20;
/** Added to the request timeout before a place held by a vanished process lapses. */
const LEASE_MARGIN_MS = 10_000;

/** Rows older than a minute are deleted at most this often per endpoint and process. */
const SWEEP_EVERY_MS = 1000;

/** How long a place is held without news from its process: the request timeout and a margin. */
const leaseMs = (e: Partial<Pick<Limited, "timeoutMs">>) => (e.timeoutMs ?? envNumber("PAL_LLM_TIMEOUT_MS", 120_000)) + LEASE_MARGIN_MS;

type Limited = Pick<EndpointLimits, "id" | "rpm" | "tpm" | "concurrency" | "timeoutMs">;

/** The requests/min window: k requests per `windowMs`. */
export function rpmWindow(rpm: number): { k: number; windowMs: number } {
  const k = Math.max(1, Math.floor(rpm / 60));
  return { k, windowMs: Math.ceil((MINUTE * k) / rpm) };
}

/**
 * One attempt to take a place: the usage row's id, or how long to wait before trying again. Rows
 * older than a minute are dropped on the way (once a second at most).
 */
export function tryAcquire(db: Db, e: Placed, now = Date.now()): Attempt {
  return transact(db, () => takePlace(db, e, now), "immediate");
}

type Placed = Pick<Limited, "id" | "rpm" | "tpm"> & Partial<Pick<Limited, "concurrency" | "timeoutMs">>;
type Attempt = { id: number } | { waitMs: number };

/** tryAcquire's work, inside the caller's IMMEDIATE transaction. */
function takePlace(db: Db, e: Placed, now: number): Attempt {
  // Housekeeping only (every check below looks at recent or live rows), so once a second is enough.
  const sweeps = pending(db).swept;
  const swept = sweeps.get(e.id);
  if (swept === undefined || now - swept >= SWEEP_EVERY_MS || now < swept) {
    stmt(db, "DELETE FROM endpoint_usage WHERE endpoint_id = ? AND at < ? AND (in_flight_until IS NULL OR in_flight_until < ?)").run(
      e.id,
      now - MINUTE,
      now,
    );
    sweeps.set(e.id, now);
  }
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
      "SELECT coalesce(sum(tokens), 0) AS t, min(at) AS first FROM endpoint_usage WHERE endpoint_id = ? AND tokens > 0 AND at >= ?",
    ).get(e.id, now - MINUTE) as { t: number; first: number | null };
    if (used.t >= e.tpm && used.first !== null) return { waitMs: Math.max(1, used.first + MINUTE - now + 1) };
  }
  const until = e.concurrency ? now + leaseMs(e) : null;
  const r = stmt(db, "INSERT INTO endpoint_usage (endpoint_id, at, in_flight_until) VALUES (?, ?, ?)").run(e.id, now, until);
  return { id: Number(r.lastInsertRowid) };
}

/**
 * What this process has not written yet, per database. Two write transactions per request (take a
 * place, give it back) were a quarter of a call's CPU at 64 in flight, so:
 * - a place of an endpoint limited only in flight, given back, stays this process's until the end of
 *   the event-loop turn, and a request starting meanwhile (a finished request lets the next one
 *   start at once) takes it as it is, with no write: for every other process the place was never free;
 * - the rest is written by the next take's transaction, or at the end of the turn.
 */
type Pending = {
  /** Rows of per-minute limits given back: their tokens and the end of their in-flight place. */
  released: Array<{ id: number; tokens: number }>;
  /** Places given back this turn and not taken again, by endpoint: deleted at the end of the turn. */
  spare: Map<number, number[]>;
  /** When each place this process holds is half-way to lapsing for the other processes (in_flight_until): renewed then. */
  renewAt: Map<number, number>;
  /** Places this process holds (taken, not yet given back). */
  held: number;
  /** When this process last deleted an endpoint's old rows (takePlace). */
  swept: Map<number, number>;
  scheduled: boolean;
};
const pendingOf = new WeakMap<Db, Pending>();

function pending(db: Db): Pending {
  let p = pendingOf.get(db);
  if (!p) pendingOf.set(db, (p = { released: [], spare: new Map(), renewAt: new Map(), held: 0, swept: new Map(), scheduled: false }));
  return p;
}

/** Writes what was given back and not taken again (inside the caller's transaction). */
function writeBack(db: Db, p: Pending): void {
  const released = p.released;
  p.released = [];
  for (const r of released)
    stmt(db, "UPDATE endpoint_usage SET tokens = ?, in_flight_until = NULL WHERE id = ?").run(Math.max(0, r.tokens), r.id);
  for (const ids of p.spare.values())
    for (const id of ids) {
      stmt(db, "DELETE FROM endpoint_usage WHERE id = ?").run(id);
      p.renewAt.delete(id);
    }
  p.spare.clear();
}

/** A place of `e` this process gave back this turn, taken again; its lease renewed when half gone. */
function takeSpare(db: Db, p: Pending, e: EndpointLimits): number | null {
  const id = p.spare.get(e.id)?.pop();
  if (id === undefined) return null;
  const now = Date.now();
  if (now >= (p.renewAt.get(id) ?? 0)) {
    const lease = leaseMs(e);
    stmt(db, "UPDATE endpoint_usage SET in_flight_until = ? WHERE id = ?").run(now + lease, id);
    p.renewAt.set(id, now + lease / 2);
  }
  return id;
}

/**
 * Waits for a place under the endpoint's limits; the id is for release. Null: no limit to honour
 * across processes (an endpoint without its own in-flight limit uses PAL_LLM_CONCURRENCY per process).
 */
export async function acquire(db: Db, e: EndpointLimits): Promise<number | null> {
  if (!e.rpm && !e.tpm && !e.concurrency) return null;
  const p = pending(db);
  for (;;) {
    // Each request of a per-minute limit is a row of its own (it counts in the window); a place is only a place.
    const spare = !e.rpm && !e.tpm ? takeSpare(db, p, e) : null;
    if (spare !== null) {
      p.held++;
      return spare;
    }
    const now = Date.now();
    const r = db.$client
      .transaction(() => {
        writeBack(db, p);
        return takePlace(db, e, now);
      })
      .immediate();
    if ("id" in r) {
      p.held++;
      if (e.concurrency) p.renewAt.set(r.id, now + leaseMs(e) / 2);
      return r.id;
    }
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
 * against tokens/min. A row that only held a place (no per-minute limit) is deleted outright. Both
 * wait for the next take or the end of the turn (see Pending); the last place this process held is
 * written at once, so a run that ends (and closes the database) leaves no place behind.
 */
export function release(db: Db, e: Pick<Limited, "id" | "rpm" | "tpm">, usageId: number | null, tokens: number): void {
  if (usageId === null) return;
  const p = pending(db);
  p.held = Math.max(0, p.held - 1);
  if (!e.rpm && !e.tpm) {
    const ids = p.spare.get(e.id);
    if (ids) ids.push(usageId);
    else p.spare.set(e.id, [usageId]);
  } else {
    p.renewAt.delete(usageId);
    p.released.push({ id: usageId, tokens });
  }
  if (p.held === 0) return transact(db, () => writeBack(db, p));
  if (p.scheduled) return;
  p.scheduled = true;
  setImmediate(() => {
    p.scheduled = false;
    try {
      transact(db, () => writeBack(db, p));
    } catch {
      // The database was closed meanwhile: the places lapse after the endpoint's timeout (in_flight_until).
    }
  });
}
