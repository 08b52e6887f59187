/**
 * The server's worker: one loop per server process that runs every queued or running experiment until
 * none is left, then idles. It is started when the server starts (instrumentation.ts) and poked when an
 * experiment is created or resumed from the browser, so work begins at once instead of at the next tick.
 * A server restart finds its experiments still "running": jobs held by a process of this machine that is gone
 * (the server killed with -9) are taken again at once; those of a live process or another machine when their leases run out.
 */
import { holderIsDeadLocal } from "@/lib/lease-holder";
import { inArray } from "drizzle-orm";
import type { Db } from "@/db/client";
import { experiments } from "@/db/schema";
import { prepareJobs } from "./prepare";
import { batchPollMs, runExperiment, workerId, type WorkerDeps } from "./worker";
import { PARKED, cancelledWithOpenBatches, settleCancelledBatches, waitingOnBatch } from "./judge-batch";
import { parseExperimentConfig } from "./config";
import { getExperimentRow } from "./control";
import { palCommand, startJoinedWorkers } from "./joined-workers";
import { getServerWorkers } from "./worker-count";

type State = {
  running: boolean;
  wake: (() => void) | null;
  stop: boolean;
  worker: string;
  lastError: string | null;
  /** The experiment whose jobs joined processes are running beside this one now, and how many there are. */
  joined: { experimentId: number; processes: number } | null;
};
type PreparerState = { running: boolean; wake: (() => void) | null; stop: boolean };

// One per process, kept on globalThis so Next's module reloading in dev does not start a second loop.
const g = globalThis as unknown as { __palServerWorker?: State; __palPreparer?: PreparerState };

/**
 * The preparer: a second loop beside the worker that creates the jobs of launched ("preparing")
 * experiments in chunks (./prepare.ts), yielding to the server between chunks, then wakes the worker.
 * Apart from the worker so a launch is prepared even while a long experiment runs; at start it also
 * finishes what a crash interrupted.
 */
export function startPreparer(db: Db, opts: { idleMs?: number } = {}): void {
  if (g.__palPreparer?.running) {
    g.__palPreparer.wake?.();
    return;
  }
  const state: PreparerState = { running: true, wake: null, stop: false };
  g.__palPreparer = state;
  const idleMs = opts.idleMs ?? 5000;
  void (async () => {
    while (!state.stop) {
      const ids = (
        db.$client.prepare("SELECT id FROM experiments WHERE status = 'preparing' ORDER BY id").all() as Array<{ id: number }>
      ).map((r) => r.id);
      for (const id of ids) {
        try {
          if ((await prepareJobs(db, id)) === "queued") wakeServerWorker();
        } catch (e) {
          markFailed(db, id, `preparing its jobs failed: ${e instanceof Error ? e.message : String(e)}`, "preparing");
        }
      }
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, ids.length ? 0 : idleMs);
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

export type ServerWorkerOptions = {
  concurrency?: number;
  idleMs?: number;
  leaseMs?: number;
  /** How a joined process is started (default: the project's bin/pal.mjs). */
  joinCommand?: string[];
};

/**
 * At a worker count N > 1 (Admin → Settings): N - 1 `pal run --join` processes beside this one for the
 * experiment, fewer when fewer jobs are queued (each needs one to start on), none at 1.
 */
function startJoined(db: Db, id: number, opts: ServerWorkerOptions, state: State) {
  const workers = getServerWorkers(db);
  if (workers <= 1) return null;
  const queued =
    (db.$client.prepare("SELECT count(*) FROM jobs WHERE experiment_id = ? AND status = 'queued'").pluck().get(id) as number) ?? 0;
  const count = Math.min(workers - 1, queued - 1);
  if (count < 1) return null;
  state.joined = { experimentId: id, processes: count + 1 };
  return startJoinedWorkers(id, count, opts.concurrency, opts.joinCommand ?? palCommand());
}

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
  const holders = db.$client.prepare(
    `SELECT DISTINCT worker FROM jobs WHERE experiment_id = ? AND status = 'running' AND lease_until > ? AND worker <> ? AND worker <> '${PARKED}'`,
  );
  // A live lease of a process of this machine that is gone (a server killed with -9) holds nothing:
  // runExperiment takes its jobs over at once (releaseDeadLocalLeases), not when the lease runs out.
  const busy = (id: number) => (holders.all(id, Date.now(), self) as Array<{ worker: string }>).some((r) => !holderIsDeadLocal(r.worker));
  // An experiment whose open jobs all wait for a judge batch polled a moment ago is left until a poll is due.
  const pollMs = batchPollMs();
  return ids.filter((id) => !busy(id) && !waitingOnBatch(db, id, pollMs));
}

/** Starts the loop once per process (later calls only wake it). */
export function startServerWorker(db: Db, deps: () => WorkerDeps, opts: ServerWorkerOptions = {}): void {
  startPreparer(db);
  if (g.__palServerWorker?.running) {
    g.__palServerWorker.wake?.();
    return;
  }
  const state: State = { running: true, wake: null, stop: false, worker: `server:${workerId()}`, lastError: null, joined: null };
  g.__palServerWorker = state;
  const idleMs = opts.idleMs ?? 2000;
  void (async () => {
    while (!state.stop) {
      const ids = runnable(db, state.worker);
      await settleCancelled(db, deps);
      for (const id of ids) {
        let joined: ReturnType<typeof startJoined> = null;
        try {
          joined = startJoined(db, id, opts, state);
          await runExperiment(db, id, deps(), { worker: state.worker, concurrency: opts.concurrency, leaseMs: opts.leaseMs });
        } catch (e) {
          // An experiment that cannot run (changed data set, no model client) is marked failed with the reason.
          state.lastError = e instanceof Error ? e.message : String(e);
          markFailed(db, id, state.lastError);
        }
        // This process's lanes end once no job is left or held by another worker: the joined ones are finishing.
        if (joined) {
          const failed = (await joined.done).filter((code) => code !== 0).length;
          if (failed)
            console.error(`experiment ${id}: ${failed} of ${joined.children.length} joined worker processes exited with an error`);
          state.joined = null;
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

/** The experiment this server's worker runs in more than one process now, and in how many (Admin → Settings). */
export function serverWorkerJoined(): { experimentId: number; processes: number } | null {
  return g.__palServerWorker?.running ? (g.__palServerWorker.joined ?? null) : null;
}

/** Wakes the loop (after a create or resume); no-op when none runs in this process. */
export function wakeServerWorker(): void {
  g.__palServerWorker?.wake?.();
}

/** Wakes the preparer (after a launch, or a resume of an experiment stopped while preparing). */
export function wakePreparer(): void {
  g.__palPreparer?.wake?.();
}

/** Stops the preparer after its current pass (tests). */
export function stopPreparer(): void {
  if (g.__palPreparer) {
    g.__palPreparer.stop = true;
    g.__palPreparer.wake?.();
  }
}

/** Stops the loop after the current experiment pass (tests). */
export function stopServerWorker(): void {
  if (g.__palServerWorker) {
    g.__palServerWorker.stop = true;
    g.__palServerWorker.wake?.();
  }
}

/** When each cancelled experiment's batches were last settled (they are polled like open batches). */
const settledAt = new Map<number, number>();

/** Cancelled experiments' judge batches still out: cancelled at the endpoint, read into the ledger once stopped (./judge-batch.ts). */
async function settleCancelled(db: Db, deps: () => WorkerDeps): Promise<void> {
  const due = Date.now() - batchPollMs();
  for (const id of cancelledWithOpenBatches(db)) {
    if ((settledAt.get(id) ?? 0) > due) continue;
    settledAt.set(id, Date.now());
    try {
      // Through the run's handle, as the run itself would (WorkerDeps.runModel).
      await settleCancelledBatches(db, deps().runModel(id, parseExperimentConfig(getExperimentRow(db, id).config)), id);
    } catch (e) {
      console.error(`experiment ${id}: settling its judge batches failed:`, e instanceof Error ? e.message : e);
    }
  }
}

function markFailed(db: Db, id: number, error: string, from: "running" | "preparing" = "running") {
  const states = from === "preparing" ? "('preparing')" : "('queued','running')";
  db.$client
    .prepare(`UPDATE experiments SET status = 'failed', error = ?, finished_at = ? WHERE id = ? AND status IN ${states}`)
    .run(error, Date.now(), id);
}
