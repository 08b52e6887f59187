/**
 * The server's worker: one loop per server process that runs every queued or running experiment until
 * none is left, then idles. It is started when the server starts (instrumentation.ts) and poked when an
 * experiment is created or resumed from the browser, so work begins at once instead of at the next tick.
 * A server restart finds its experiments still "running": their jobs' leases run out and are taken again.
 */
import { inArray } from "drizzle-orm";
import type { Db } from "@/db/client";
import { experiments } from "@/db/schema";
import { runExperiment, workerId, type WorkerDeps } from "./worker";

type State = { running: boolean; wake: (() => void) | null; stop: boolean; worker: string; lastError: string | null };

// One per process, kept on globalThis so Next's module reloading in dev does not start a second loop.
const g = globalThis as unknown as { __palServerWorker?: State };

export type ServerWorkerOptions = { concurrency?: number; idleMs?: number; leaseMs?: number };

/**
 * Queued or running experiments, except those another process (a `pal run`) is working on right now
 * (it holds live leases): that process finishes them; the server takes over only once its leases run out.
 */
function runnable(db: Db, self: string): number[] {
  const ids = db
    .select({ id: experiments.id })
    .from(experiments)
    .where(inArray(experiments.status, ["queued", "running"]))
    .orderBy(experiments.id)
    .all()
    .map((r) => r.id);
  const busy = db.$client.prepare(
    "SELECT 1 FROM jobs WHERE experiment_id = ? AND status = 'running' AND lease_until > ? AND worker <> ? LIMIT 1",
  );
  return ids.filter((id) => !busy.get(id, Date.now(), self));
}

/** Starts the loop once per process (later calls only wake it). */
export function startServerWorker(db: Db, deps: () => WorkerDeps, opts: ServerWorkerOptions = {}): void {
  if (g.__palServerWorker?.running) {
    g.__palServerWorker.wake?.();
    return;
  }
  const state: State = { running: true, wake: null, stop: false, worker: `server:${workerId()}`, lastError: null };
  g.__palServerWorker = state;
  const idleMs = opts.idleMs ?? 2000;
  void (async () => {
    while (!state.stop) {
      const ids = runnable(db, state.worker);
      for (const id of ids) {
        try {
          await runExperiment(db, id, deps(), { worker: state.worker, concurrency: opts.concurrency, leaseMs: opts.leaseMs });
        } catch (e) {
          // An experiment that cannot run (changed data set, no model client) is marked failed with the reason.
          state.lastError = e instanceof Error ? e.message : String(e);
          markFailed(db, id, state.lastError);
        }
      }
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, ids.length ? 50 : idleMs);
        state.wake = () => {
          clearTimeout(t);
          resolve();
        };
      });
      state.wake = null;
    }
    state.running = false;
  })();
}

/** Wakes the loop (after a create or resume); no-op when none runs in this process. */
export function wakeServerWorker(): void {
  g.__palServerWorker?.wake?.();
}

/** Stops the loop after the current experiment pass (tests). */
export function stopServerWorker(): void {
  if (g.__palServerWorker) {
    g.__palServerWorker.stop = true;
    g.__palServerWorker.wake?.();
  }
}

function markFailed(db: Db, id: number, error: string) {
  db.$client
    .prepare("UPDATE experiments SET status = 'failed', error = ?, finished_at = ? WHERE id = ? AND status IN ('queued','running')")
    .run(error, Date.now(), id);
}
