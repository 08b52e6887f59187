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
