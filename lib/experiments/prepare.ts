/**
 * Creating a launched experiment's jobs, off the request path: chunks of PREPARE_CHUNK rows, each in
 * its own short transaction, so other writers (annotators' labels, other launches) wait at most one
 * chunk, and the server's event loop is given back between chunks (the async form: it rests as long
 * as the chunk took) so it keeps answering. Resumable: the plan is deterministic, so after a crash the next pass counts the jobs
 * already written and continues after them (INSERT OR IGNORE on the jobs' identity makes a repeated
 * chunk harmless). When every planned job exists the experiment goes from "preparing" to "queued".
 */
import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { stmt } from "@/db/statements";
import { datasets } from "@/db/schema";
import { parseExperimentConfig } from "@/lib/experiments/config";
import { getExperimentRow } from "./control";
import { datasetHash, datasetHashInPages } from "@/lib/experiments/dataset-hash";
import { itemTitler } from "./item-titles";
import { PENDING_HASH, planItems, planned, type PlannedJob } from "./plan";

export const PREPARE_CHUNK = 2000;

export type PrepareOutcome = "queued" | "stopped";

function setHash(db: Db, id: number, hash: string) {
  db.$client.prepare("UPDATE experiments SET dataset_hash = ? WHERE id = ? AND dataset_hash = ?").run(hash, id, PENDING_HASH);
}

/** One experiment's preparation as steps: each `step()` writes one chunk; false once nothing is left to do. */
function preparation(db: Db, id: number, chunk: number) {
  const exp = getExperimentRow(db, id);
  const ds = db.select().from(datasets).where(eq(datasets.id, exp.datasetId)).get()!;
  // Launched with the hash pending (./create.ts): the sync form hashes here, the async one before.
  if (exp.datasetHash === PENDING_HASH) setHash(db, id, datasetHash(db, ds.id, ds.kind));
  const jobs = planned(planItems(db, ds.id, parseExperimentConfig(exp.config), ds.kind));
  const have = (stmt(db, "SELECT count(*) AS n FROM jobs WHERE experiment_id = ?").get(id) as { n: number }).n;
  // One job of look-ahead, so the chunk that writes the last job also marks the experiment queued.
  let next: IteratorResult<PlannedJob> = jobs.next();
  for (let i = 0; i < have && !next.done; i++) next = jobs.next();
  const insert = db.$client.prepare(
    `INSERT OR IGNORE INTO jobs (experiment_id, replicate, method, task, item_key, user_key, phase, status, title)
     VALUES (?, ?, ?, ?, ?, ?, ?, 'queued', ?)`,
  );
  const titleOf = itemTitler(db, ds.id, ds.kind);
  const statusOf = db.$client.prepare("SELECT status FROM experiments WHERE id = ?");
  const queue = db.$client.prepare("UPDATE experiments SET status = 'queued' WHERE id = ? AND status = 'preparing'");
  let outcome: PrepareOutcome = "stopped";
  const step = db.$client.transaction((): boolean => {
    // Cancelled or paused while preparing: stop; a resume prepares the rest.
    if ((statusOf.get(id) as { status: string } | undefined)?.status !== "preparing") return false;
    for (let n = 0; n < chunk && !next.done; n++) {
      const j = next.value;
      insert.run(id, j.replicate, j.method, j.task, j.itemKey, j.userKey, j.phase, titleOf(j.itemKey));
      next = jobs.next();
    }
    if (!next.done) return true;
    queue.run(id);
    outcome = "queued";
    return false;
  });
  return { step: () => step.immediate(), outcome: () => outcome };
}

/**
 * Prepares in chunks, resting between them (the server). The rest is as long as the chunk took (at
 * most REST_MAX_MS): a request needs several turns of the event loop (body, session, database), and
 * with only a setImmediate between chunks each turn would wait behind a chunk; resting as long as
 * the chunk leaves the server idle half the time, so requests finish within one rest.
 */
export const REST_MAX_MS = 100;

export async function prepareJobs(
  db: Db,
  id: number,
  opts: { chunk?: number; pause?: (chunkMs: number) => Promise<void>; maxChunks?: number } = {},
): Promise<PrepareOutcome> {
  const pause = opts.pause ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, Math.min(REST_MAX_MS, Math.ceil(ms)))));
  const exp = getExperimentRow(db, id);
  if (exp.datasetHash === PENDING_HASH) {
    const ds = db.select().from(datasets).where(eq(datasets.id, exp.datasetId)).get()!;
    setHash(db, id, await datasetHashInPages(db, ds.id, ds.kind, () => pause(5)));
  }
  const p = preparation(db, id, opts.chunk ?? PREPARE_CHUNK);
  for (let i = 0; ; i++) {
    const t0 = performance.now();
    if (!p.step()) break;
    if (opts.maxChunks !== undefined && i + 1 >= opts.maxChunks) return "stopped";
    await pause(performance.now() - t0);
  }
  return p.outcome();
}

/** Prepares in chunks without yielding (`pal run` and tests, which run the experiment right after). */
export function prepareJobsSync(db: Db, id: number, opts: { chunk?: number } = {}): PrepareOutcome {
  const p = preparation(db, id, opts.chunk ?? PREPARE_CHUNK);
  while (p.step()) {
    /* one chunk per transaction */
  }
  return p.outcome();
}
