/**
 * The worker's lanes: `concurrency` loops that each claim a job, run it, and store its result in the
 * transaction that also claims the lane's next job (one commit per item, which is most of an item's cost
 * when its calls come from the cache). A lane with nothing to claim waits until another lane finishes a
 * job (which may open the next phase, or end the run) or, for jobs other workers hold, a poll interval.
 * Pause and cancel are read before every claim. Every statement here runs per job: prepared statements
 * (db/statements.ts), as in ./lease.ts.
 */
import os from "node:os";
import type { Db } from "@/db/client";
import { stmt, transact } from "@/db/statements";
import type { ExperimentStatus } from "@/db/schema";
import { claimJob, releaseDeadLocalLeases, type ClaimedJob } from "./lease";
import { PARKED } from "./judge-batch";

export type LaneEvent = { jobId: number; status: "done" | "failed" | "queued" | "cancelled"; error?: string };

export type LaneOptions = {
  worker: string;
  leaseMs: number;
  concurrency: number;
  /**
   * Runs one claimed job and returns what stores its result (or its failure): the lane calls it inside
   * the transaction that claims its next job. It returns the event to report, or null when the job was
   * no longer this worker's.
   */
  runOne(job: ClaimedJob): Promise<() => LaneEvent | null>;
  onProgress?: (event: LaneEvent) => void;
};

/** Whether the experiment was paused or cancelled (the lanes stop claiming). */
export function experimentStopped(db: Db, experimentId: number): boolean {
  const s = (stmt(db, "SELECT status FROM experiments WHERE id = ?").get(experimentId) as { status: ExperimentStatus } | undefined)?.status;
  return s === "paused" || s === "cancelled";
}

/**
 * Jobs of the experiment being run by a worker (this one or another). Jobs parked until their judge
 * batch is in (./judge-batch.ts) are not: the run's batch step takes them.
 */
function heldJobs(db: Db, experimentId: number): number {
  const sql = "SELECT count(*) AS n FROM jobs WHERE experiment_id = ? AND status = 'running' AND worker <> ?";
  return (stmt(db, sql).get(experimentId, PARKED) as { n: number }).n;
}

/** Runs the lanes until the experiment has nothing left to claim or wait for, or is paused or cancelled. */
export async function runLanes(db: Db, experimentId: number, o: LaneOptions): Promise<void> {
  const claim = () => (experimentStopped(db, experimentId) ? null : claimJob(db, experimentId, o.worker, o.leaseMs));
  let finished: Array<() => void> = [];
  const jobFinished = () => {
    const w = finished;
    finished = [];
    for (const f of w) f();
  };
  // A worker of this machine that died holding jobs (`pal run`'s main process killed, SIGKILL: no handler
  // ran) would keep them until their leases ran out, a minute, while the joined workers waited for them:
  // a lane that waits looks, at most once a second, whether their holders still run, and takes them over.
  let swept = 0;
  const takeOverDead = (): boolean => {
    if (Date.now() - swept < 1000) return false;
    swept = Date.now();
    return releaseDeadLocalLeases(db, experimentId, os.hostname()) > 0;
  };
  const nextFinishOrPoll = () =>
    new Promise<void>((resolve) => {
      const t = setTimeout(resolve, Math.min(250, o.leaseMs / 4));
      finished.push(() => {
        clearTimeout(t);
        resolve();
      });
    });
  const lane = async () => {
    let job = claim();
    for (;;) {
      if (job) {
        const finish = await o.runOne(job);
        const [event, next] = transact(
          db,
          () => {
            const ev = finish();
            return [ev, claim()] as const;
          },
          "immediate",
        );
        if (event) o.onProgress?.(event);
        jobFinished();
        job = next;
        continue;
      }
      if (experimentStopped(db, experimentId)) return;
      // Nothing claimable: done (or the rest waits for a parked phase), unless jobs that other lanes or
      // workers hold finish (opening the next phase) or are released (their leases may run out).
      if (heldJobs(db, experimentId) === 0 && !(job = claim())) return;
      if (job) continue;
      if (takeOverDead() && (job = claim())) continue;
      await nextFinishOrPoll();
      job = claim();
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, o.concurrency) }, lane));
}
