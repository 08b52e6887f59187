/**
 * What the processes running an experiment wait for (table run_activity): each writes its model
 * requests in flight, since when the oldest waits and its timeouts every ACTIVITY_EVERY_MS while it
 * runs (./worker.ts), so a run whose model takes minutes per reply reads "3 calls in flight, oldest
 * 95 s" instead of looking dead, in `pal run` and on the experiment page alike, whichever process
 * runs it. One small write every two seconds per process, not one per request.
 */
import type { Db } from "@/db/client";
import { stmt } from "@/db/statements";
import type { InFlight } from "@/lib/llm/client";
import type { RunActivity } from "./activity-text";

export const ACTIVITY_EVERY_MS = 2000;

/** A row not refreshed for this long belongs to a process that is gone (killed, crashed). */
const STALE_MS = 15_000;

export type { RunActivity } from "./activity-text";

export function writeActivity(db: Db, experimentId: number, worker: string, a: InFlight & { timeouts: number }, now = Date.now()): void {
  stmt(
    db,
    `INSERT INTO run_activity (experiment_id, worker, calls_in_flight, oldest_started_at, timeouts, updated_at) VALUES (?, ?, ?, ?, ?, ?)
     ON CONFLICT (experiment_id, worker) DO UPDATE SET calls_in_flight = excluded.calls_in_flight,
     oldest_started_at = excluded.oldest_started_at, timeouts = excluded.timeouts, updated_at = excluded.updated_at`,
  ).run(experimentId, worker, a.calls, a.oldestStartedAt, a.timeouts, now);
}

/** The process stopped running the experiment: nothing of it is in flight any more. */
export function clearActivity(db: Db, experimentId: number, worker: string): void {
  stmt(db, "DELETE FROM run_activity WHERE experiment_id = ? AND worker = ?").run(experimentId, worker);
}

/** The live processes' activity summed, or null when no live process runs the experiment. */
export function readActivity(db: Db, experimentId: number, now = Date.now()): RunActivity | null {
  const r = stmt(
    db,
    `SELECT count(*) AS n, coalesce(sum(calls_in_flight), 0) AS calls, min(oldest_started_at) AS oldest, coalesce(sum(timeouts), 0) AS timeouts
     FROM run_activity WHERE experiment_id = ? AND updated_at > ?`,
  ).get(experimentId, now - STALE_MS) as { n: number; calls: number; oldest: number | null; timeouts: number };
  if (r.n === 0) return null;
  return { processes: r.n, calls: r.calls, oldestMs: r.oldest === null ? null : Math.max(0, now - r.oldest), timeouts: r.timeouts };
}
