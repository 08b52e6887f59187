/**
 * The judge calls of an experiment sent as batches (config `judgeBatch`; OpenAI Batch API, lib/llm/batch.ts).
 *
 * Answer calls stay online. A job whose judge calls the cache cannot answer is run as a collecting pass:
 * each such judge call is handed to this run's collector instead of being sent, and the job goes on with
 * a stand-in reply so that its later, independent judge calls are collected in the same pass (the pass's
 * outcome is thrown away; a non-judge call after a stand-in stops the pass, so no paid call is made from
 * a stand-in). The job is then parked (status running, worker "batch", no lease to run out) and keeps
 * its phase from ending. When the lanes have nothing else to do, the collected calls are submitted, one
 * batch per judge configuration, and polled; once ingested (cache + ledger, as online replies) the parked
 * jobs are queued again and run as usual, answered from the cache. A reply the batch got wrong is asked
 * online the next time (a call is batched once per process).
 *
 * Every state is in the database: a restarted process finds parked jobs and open batches; it queues the
 * jobs again, whose collecting pass (free: their answers come from the cache) rebuilds the calls, and
 * polls the open batch with them. A batch that failed, expired or was cancelled ends batching for the
 * experiment: its parked jobs are queued and run online.
 */
import type { Db } from "@/db/client";
import { stmt } from "@/db/statements";
import { DeferredCallError, type CollectedCall, type ModelClient } from "@/lib/llm/client";
import { FINISHED_BATCH, batchesOfExperiment, cancelBatch, pollBatch, submitBatch, type BatchRow } from "@/lib/llm/batch";

export { batchesOfExperiment };
import { ConflictError } from "@/lib/errors";
import { onBatchApiEndpoint } from "@/lib/llm/config";
import type { ChatRequest } from "@/lib/tasks/ports";
import type { LedgerRow } from "@/lib/llm/ledger";
import type { ModelPort } from "@/lib/tasks/ports";
import type { SpendGuard } from "@/lib/llm/spend-guard";

/** What the worker binds to a job (./worker.ts BoundModel; restated here so the two files do not import each other). */
type BoundModel = ModelPort & { usage(): Record<string, number>; takeDeferredHits(): LedgerRow[] };

/** The lease holder of a parked job (waiting for its judge calls' batch). */
export const PARKED = "batch";
/** A parked job's lease never runs out: the batch step queues it again. */
const PARKED_UNTIL = Number.MAX_SAFE_INTEGER;

/** Thrown by the collector for a call already batched once in this process: it is made online. */
class SendOnline extends Error {}
/** A non-judge call after a stand-in reply: the collecting pass stops there. */
class StandInUsed extends Error {
  constructor() {
    super("a collecting pass stops before a call that could depend on a stand-in judge reply");
  }
}

/** What one process keeps of an experiment's batching: the calls collected and not yet batched, those batched. */
type State = { pending: Map<string, CollectedCall>; sent: Set<string>; on: boolean };
const g = globalThis as unknown as { __palJudgeBatches?: WeakMap<object, Map<number, State>> };
const allStates: WeakMap<object, Map<number, State>> = (g.__palJudgeBatches ??= new WeakMap());
/** Per database connection (experiment ids are per database; tests open several). */
function statesOf(db: Db): Map<number, State> {
  let m = allStates.get(db.$client);
  if (!m) allStates.set(db.$client, (m = new Map()));
  return m;
}

/** A batch that ended without its replies (failed, expired, cancelled) ends batching for the experiment. */
function batchingEnded(db: Db, experimentId: number): boolean {
  return !!stmt(db, "SELECT 1 FROM llm_batches WHERE experiment_id = ? AND status IN ('failed', 'expired', 'cancelled') LIMIT 1").get(
    experimentId,
  );
}

export function parkedJobs(db: Db, experimentId: number): number {
  return (
    stmt(db, "SELECT count(*) AS n FROM jobs WHERE experiment_id = ? AND status = 'running' AND worker = ?").get(experimentId, PARKED) as {
      n: number;
    }
  ).n;
}

/** Parks a job this worker holds; the attempt it was claimed with is given back (nothing failed). */
export function parkJob(db: Db, jobId: number, worker: string): boolean {
  return (
    stmt(
      db,
      `UPDATE jobs SET worker = ?, lease_until = ?, attempts = max(0, attempts - 1), updated_at = ?
       WHERE id = ? AND worker = ? AND status = 'running'`,
    ).run(PARKED, PARKED_UNTIL, Date.now(), jobId, worker).changes > 0
  );
}

/** Queues the experiment's parked jobs again. */
export function unparkJobs(db: Db, experimentId: number): number {
  return stmt(
    db,
    `UPDATE jobs SET status = 'queued', worker = NULL, lease_until = NULL, updated_at = ?
     WHERE experiment_id = ? AND status = 'running' AND worker = ?`,
  ).run(Date.now(), experimentId, PARKED).changes;
}

/**
 * Whether the server's worker can leave the experiment for now: all its open jobs are parked and its
 * open batches were polled less than `pollMs` ago (the next run polls them).
 */
export function waitingOnBatch(db: Db, experimentId: number, pollMs: number, now = Date.now()): boolean {
  if (parkedJobs(db, experimentId) === 0) return false;
  const other = stmt(
    db,
    "SELECT 1 FROM jobs WHERE experiment_id = ? AND status IN ('queued', 'running') AND (worker IS NULL OR worker <> ?) LIMIT 1",
  ).get(experimentId, PARKED);
  if (other) return false;
  const due = stmt(
    db,
    `SELECT 1 FROM llm_batches WHERE experiment_id = ? AND status NOT IN ('ingested', 'failed', 'expired', 'cancelled')
     AND coalesce(updated_at, 0) > ? LIMIT 1`,
  ).get(experimentId, now - pollMs);
  return !!due;
}

/**
 * A stand-in of a reply's shape, from its schema (zod's definition: objects with their fields, numbers at
 * their minimum, strings empty, an enum's first value), so that a task's own checks on it pass (FairEval
 * wants finite scores) and its later judge calls are reached; any other shape is standIn().
 */
function sampleOf(schema: unknown): unknown {
  const def = (schema as { _zod?: { def?: Record<string, unknown> } } | undefined)?._zod?.def;
  if (!def) return standIn();
  switch (def.type) {
    case "object":
      return Object.fromEntries(Object.entries(def.shape as Record<string, unknown>).map(([k, v]) => [k, sampleOf(v)]));
    case "number":
    case "int": {
      const min = (schema as { minValue?: number | null }).minValue;
      return typeof min === "number" && Number.isFinite(min) ? min : 0;
    }
    case "string":
      return "";
    case "boolean":
      return false;
    case "array":
      return [];
    case "record":
      return {};
    case "enum":
      return Object.values(def.entries as Record<string, unknown>)[0];
    case "literal":
      return (def.values as unknown[])[0];
    case "union":
      return sampleOf((def.options as unknown[])[0]);
    case "optional":
    case "nullable":
    case "default":
    case "readonly":
      return sampleOf(def.innerType);
    case "pipe":
      return sampleOf(def.in);
    default:
      return standIn();
  }
}

/** A value that is anything a task reads of a reply (numbers read 0, strings ""); the pass's outcome is thrown away. */
function standIn(): unknown {
  const target = function () {};
  const p: unknown = new Proxy(target, {
    get: (_t, k) => {
      if (k === Symbol.toPrimitive) return (hint: string) => (hint === "string" ? "" : 0);
      if (k === "then" || k === "toJSON") return undefined;
      if (k === Symbol.iterator) return function* () {};
      if (k === "length") return 0;
      return p;
    },
    apply: () => p,
  });
  return p;
}

/** Forgets what this process kept of an experiment's batching (tests: what a restarted process has). */
export function forgetJudgeBatching(db: Db, experimentId: number): void {
  statesOf(db).delete(experimentId);
}

export type JudgeBatching = {
  /** Whether judge calls are still collected (false once a batch of the experiment failed or was cancelled). */
  on(): boolean;
  /** The model a job sees in a collecting pass, and how many of its judge calls were deferred. */
  model(collecting: BoundModel, online: BoundModel): BoundModel & { deferred(): number };
  collect(call: CollectedCall): void;
  /**
   * After the lanes ran out of work: submits what was collected, as much of it as the run's spend guard
   * has room for, or polls the open batches and, once they are in, queues the parked jobs again.
   * "ready": jobs were queued; "waiting": a batch is still out; "none": no job is parked; "paused":
   * nothing more fits under the spend cap (the guard tripped: the run pauses with the cap's message).
   */
  step(client: ModelClient, guard?: SpendGuard): Promise<"ready" | "waiting" | "none" | "paused">;
};

/**
 * The batching of one experiment in this process. In a process that has not batched for it yet, its
 * parked jobs (left by a stopped process) are queued again: their collecting pass rebuilds the calls.
 */
export function judgeBatching(db: Db, experimentId: number): JudgeBatching {
  const states = statesOf(db);
  let state = states.get(experimentId);
  if (!state) {
    states.set(experimentId, (state = { pending: new Map(), sent: new Set(), on: true }));
    unparkJobs(db, experimentId);
  }
  const s = state;
  if (batchingEnded(db, experimentId)) s.on = false;
  const finishRound = () => {
    for (const k of s.pending.keys()) s.sent.add(k);
    s.pending.clear();
    unparkJobs(db, experimentId);
  };
  /** After batches were read: their calls are answered (or go online); calls left out (the cap) stay collected. */
  const finishBatches = (read: BatchRow[]) => {
    for (const b of read)
      for (const l of b.lines ?? []) {
        s.sent.add(l.key);
        s.pending.delete(l.key);
      }
    // Batches from before lines were kept: their calls are not known one by one.
    if (read.some((b) => !b.lines)) return finishRound();
    unparkJobs(db, experimentId);
  };
  return {
    on: () => s.on,
    collect(call) {
      if (s.sent.has(call.cacheKey)) throw new SendOnline();
      s.pending.set(call.cacheKey, call);
    },
    model(collecting, online) {
      let deferred = 0;
      const judge = async <R>(req: ChatRequest, via: (m: BoundModel) => Promise<R>, stand: () => R): Promise<R> => {
        if (req.role !== "judge") {
          if (deferred) throw new StandInUsed();
          return via(online);
        }
        try {
          return await via(collecting);
        } catch (e) {
          if (e instanceof DeferredCallError) {
            deferred++;
            return stand();
          }
          if (e instanceof SendOnline) {
            // Made online, but not after a stand-in (its prompt could depend on one): the next pass makes it.
            if (deferred) throw new StandInUsed();
            return via(online);
          }
          throw e;
        }
      };
      return {
        chatJson: (req) =>
          judge(
            req,
            (m) => m.chatJson(req),
            () => ({ value: sampleOf(req.schema) as never, raw: "" }),
          ),
        chatText: (req) =>
          judge(
            req,
            (m) => m.chatText(req),
            () => ({ value: standIn() as never, raw: "" }),
          ),
        embed: (texts, purpose) => {
          if (deferred) throw new StandInUsed();
          return online.embed(texts, purpose);
        },
        usage: () => online.usage(),
        takeDeferredHits: () => online.takeDeferredHits(),
        deferred: () => deferred,
      };
    },
    async step(client, guard) {
      if (parkedJobs(db, experimentId) === 0) return "none";
      const open = batchesOfExperiment(db, experimentId).filter((b) => !FINISHED_BATCH.includes(b.status));
      if (open.length) {
        // Ingested with the run's guard watching: the batch's rows add their cost (their places were taken when sent).
        const reader = guard ? client.withGuard(guard) : client;
        try {
          for (const b of open) await pollBatch(db, reader, b, s.pending);
        } catch (e) {
          // The endpoint did not answer the poll: the batch is still out there; the next poll asks again.
          console.error(`experiment ${experimentId}: polling its judge batch failed:`, e instanceof Error ? e.message : e);
          return "waiting";
        }
        const now = batchesOfExperiment(db, experimentId);
        if (now.some((b) => !FINISHED_BATCH.includes(b.status))) return "waiting";
        if (batchingEnded(db, experimentId)) {
          s.on = false;
          finishRound();
        } else finishBatches(now.filter((b) => open.some((o) => o.id === b.id)));
        return "ready";
      }
      if (!s.pending.size || !s.on) {
        finishRound();
        return "ready";
      }
      // A batch is sent only as far as the spend cap has room: the rest waits for the run to be resumed
      // (with a higher cap), and the guard trips with the cap's message.
      const room = guard ? guard.room() : Infinity;
      if (room < 1) {
        guard!.refuse();
        return "paused";
      }
      const take = [...s.pending.values()].slice(0, Number.isFinite(room) ? room : undefined);
      const byConfig = new Map<string, CollectedCall[]>();
      for (const c of take) byConfig.set(c.config, [...(byConfig.get(c.config) ?? []), c]);
      for (const calls of byConfig.values()) {
        guard?.reserve(calls.length);
        try {
          await submitBatch(db, client, calls, null, experimentId);
        } catch (e) {
          guard?.unreserve(calls.length); // nothing was sent
          // Refused (no Batch API at this endpoint): the row says why; the jobs run online.
          console.error(`experiment ${experimentId}: the judge batch was refused, judging online:`, e instanceof Error ? e.message : e);
          s.on = false;
          finishRound();
          return "ready";
        }
      }
      return "waiting";
    },
  };
}

/**
 * The judge configurations an experiment's tasks call unless its config names others: the role itself
 * (HiCUPID's default judge), requirement's "judge:gscore" and dialogue's "judge:dialogue" (each falls back
 * to the role when it has no settings of its own).
 */
const EXPERIMENT_JUDGE_CONFIGS = ["judge", "judge:gscore", "judge:dialogue"];

/** Whether every judge configuration an experiment calls by default is on an endpoint marked as serving the Batch API (for the New experiment form's note). */
export function judgeEndpointsBatchApi(db: Db): boolean {
  return EXPERIMENT_JUDGE_CONFIGS.every((name) => onBatchApiEndpoint(db, name));
}

/**
 * Cancels the experiment's open judge batches at the endpoint; the parked jobs run online. What a batch
 * answered before it stopped is read into the ledger (and, for calls this process holds, the cache).
 */
export async function cancelJudgeBatches(db: Db, client: ModelClient, experimentId: number): Promise<BatchRow[]> {
  const open = batchesOfExperiment(db, experimentId).filter((b) => !FINISHED_BATCH.includes(b.status));
  if (!open.length) throw new ConflictError(`experiment ${experimentId} has no judge batch in progress`);
  const done: BatchRow[] = [];
  const held = statesOf(db).get(experimentId)?.pending ?? new Map<string, CollectedCall>();
  for (const b of open) done.push(await cancelBatch(db, client, b, held));
  const s = statesOf(db).get(experimentId);
  if (s) {
    s.on = false;
    s.pending.clear();
  }
  unparkJobs(db, experimentId);
  return done;
}

/**
 * The judge batches of a cancelled experiment, seen through to their end: each is cancelled at the
 * endpoint (once: a batch "cancelling" is only polled), and a batch that stopped, cancelled or completed
 * anyway, is read into the ledger against its calls' jobs. Returns the batches still out. Called when
 * the experiment is cancelled, by the run that sees it cancelled, and by the server's worker until none
 * is left.
 */
export async function settleCancelledBatches(db: Db, client: ModelClient, experimentId: number): Promise<BatchRow[]> {
  const held = statesOf(db).get(experimentId)?.pending ?? new Map<string, CollectedCall>();
  for (const b of batchesOfExperiment(db, experimentId).filter((x) => !FINISHED_BATCH.includes(x.status))) {
    try {
      if (b.status === "cancelling") await pollBatch(db, client, b, held);
      else await cancelBatch(db, client, b, held);
    } catch (e) {
      // The endpoint did not answer: the batch is still out; the next pass asks again.
      console.error(`experiment ${experimentId}: settling judge batch ${b.id} failed:`, e instanceof Error ? e.message : e);
    }
  }
  return batchesOfExperiment(db, experimentId).filter((x) => !FINISHED_BATCH.includes(x.status));
}

/** Cancelled experiments with a judge batch still out (the server's worker settles them). */
export function cancelledWithOpenBatches(db: Db): number[] {
  return (
    stmt(
      db,
      `SELECT DISTINCT b.experiment_id AS id FROM llm_batches b JOIN experiments e ON e.id = b.experiment_id
       WHERE e.status = 'cancelled' AND b.status NOT IN ('ingested', 'failed', 'expired', 'cancelled') ORDER BY b.experiment_id`,
    ).all() as Array<{ id: number }>
  ).map((r) => r.id);
}
