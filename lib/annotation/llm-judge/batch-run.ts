/**
 * An LLM judge run sent as a batch (OpenAI Batch API, lib/llm/batch.ts): one step at a time, each step
 * safe to repeat after a restart. The first step collects the calls the run needs and submits them;
 * later steps poll; when the batch completed its replies are ingested (cache + ledger) and the run is
 * made as usual, answered from the cache (a reply the batch got wrong is asked again online).
 */
import type { Db } from "@/db/client";
import type { ModelClient } from "@/lib/llm/client";
import { FINISHED_BATCH, batchesOfRun, pollBatch, submitBatch, cancelBatch, type BatchRow } from "@/lib/llm/batch";
import { ConflictError } from "@/lib/errors";
import { envNumber } from "@/lib/config";
import { collectLlmJudgeCalls, runLlmJudge, type LlmJudgeOptions, type LlmJudgeResult } from "./run";

export type BatchJudgeStep =
  | { state: "submitted" | "waiting"; runId: number; batch: BatchRow }
  | { state: "done"; runId: number; batch: BatchRow | null; result: LlmJudgeResult }
  | { state: "failed"; runId: number; batch: BatchRow };

export async function advanceBatchJudge(
  db: Db,
  client: ModelClient,
  campaignId: number,
  o: LlmJudgeOptions,
  userId: number,
): Promise<BatchJudgeStep> {
  const { runId, calls } = await collectLlmJudgeCalls(db, client, campaignId, o, userId);
  const open = batchesOfRun(db, runId).find((b) => !FINISHED_BATCH.includes(b.status));
  if (!open) {
    const last = batchesOfRun(db, runId).at(-1);
    if (calls.size === 0 || last?.status === "ingested") {
      // Nothing left to send (or the batch is in): the run itself, from the cache.
      return { state: "done", runId, batch: last ?? null, result: await runLlmJudge(db, client, campaignId, o, userId) };
    }
    const batch = await submitBatch(db, client, [...calls.values()], runId);
    return { state: "submitted", runId, batch };
  }
  const now = await pollBatch(db, client, open, calls);
  if (now.status === "ingested") return { state: "done", runId, batch: now, result: await runLlmJudge(db, client, campaignId, o, userId) };
  if (FINISHED_BATCH.includes(now.status)) return { state: "failed", runId, batch: now };
  return { state: "waiting", runId, batch: now };
}

/** Steps until done (or the batch failed), waiting `pollMs` between polls; `onStep` sees every step. */
export async function runBatchJudge(
  db: Db,
  client: ModelClient,
  campaignId: number,
  o: LlmJudgeOptions,
  userId: number,
  opts: { pollMs?: number; onStep?: (s: BatchJudgeStep) => void } = {},
): Promise<BatchJudgeStep> {
  for (;;) {
    const s = await advanceBatchJudge(db, client, campaignId, o, userId);
    opts.onStep?.(s);
    if (s.state === "done" || s.state === "failed") return s;
    await new Promise((r) => setTimeout(r, opts.pollMs ?? 30_000));
  }
}

/** Cancels the run's open batch (the endpoint stops it; nothing of it is ingested). */
export async function cancelBatchJudge(db: Db, client: ModelClient, runId: number): Promise<BatchRow> {
  const open = batchesOfRun(db, runId).find((b) => !FINISHED_BATCH.includes(b.status));
  if (!open) throw new ConflictError(`judge run ${runId} has no batch in progress`);
  return cancelBatch(db, client, open);
}

/** Batch runs this server process is stepping (the campaign page shows them; a run is not stepped twice). */
const stepping: Set<number> = ((globalThis as { __palBatchJudges?: Set<number> }).__palBatchJudges ??= new Set());

const pollMs = () => envNumber("PAL_BATCH_POLL_MS", 30_000);

/** Starts (or resumes) a batch judge run in the background of the server; returns its run id at once. */
export async function startBatchJudge(
  db: Db,
  client: ModelClient,
  campaignId: number,
  o: LlmJudgeOptions,
  userId: number,
): Promise<{ runId: number; started: boolean }> {
  const first = await advanceBatchJudge(db, client, campaignId, o, userId);
  if (first.state === "done" || first.state === "failed" || stepping.has(first.runId)) return { runId: first.runId, started: false };
  stepping.add(first.runId);
  void runBatchJudge(db, client, campaignId, o, userId, { pollMs: pollMs() })
    .catch((e) => console.error(`batch judge run ${first.runId} stopped:`, e))
    .finally(() => stepping.delete(first.runId));
  return { runId: first.runId, started: true };
}

/** At server start: every judge run with a batch still open is polled again (its state is all in the database). */
export async function resumeBatchJudges(db: Db, client: ModelClient): Promise<number[]> {
  const open = db.$client
    .prepare(
      `SELECT DISTINCT r.id, r.campaign_id AS campaignId, r.created_by AS createdBy, r.config FROM llm_batches b
       JOIN judge_runs r ON r.id = b.judge_run_id WHERE b.status NOT IN ('ingested', 'failed', 'expired', 'cancelled')`,
    )
    .all() as Array<{ id: number; campaignId: number; createdBy: number; config: string | null }>;
  const resumed: number[] = [];
  for (const r of open) {
    const cfg = (r.config ? JSON.parse(r.config) : {}) as Record<string, unknown>;
    const o: LlmJudgeOptions = {
      modelConfig: typeof cfg.modelConfig === "string" ? cfg.modelConfig : undefined,
      temperature: typeof cfg.temperature === "number" ? cfg.temperature : undefined,
      tieMargin: typeof cfg.tieMargin === "number" ? cfg.tieMargin : undefined,
      seed: typeof cfg.seed === "number" ? cfg.seed : undefined,
    };
    const s = await startBatchJudge(db, client, r.campaignId, o, r.createdBy);
    if (s.started) resumed.push(s.runId);
  }
  return resumed;
}

export function isSteppingBatch(runId: number): boolean {
  return stepping.has(runId);
}
