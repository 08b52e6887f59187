/**
 * The OpenAI Batch API (/v1/files + /v1/batches) for calls that can wait: half the price, answered
 * within 24 hours (HiCUPID's evaluation used it). A batch is built from the calls a run would make
 * (ModelClient.collecting), submitted, polled, and ingested: each reply is validated and enters the
 * cache and the ledger as an online reply does (ModelClient.acceptBatchReply). The run then makes its
 * calls as usual and is answered from the cache; a reply the batch got wrong is asked again online.
 * Every state is a row (llm_batches), so a restart resumes polling where it was.
 */
import { toFile } from "openai";
import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { llmBatches, type BatchLine, type LlmBatchStatus } from "@/db/schema";
import { InvalidInputError } from "@/lib/errors";
import { redactSecrets } from "./redact";
import type { CollectedCall, ModelClient } from "./client";
import { responseFormat } from "./json-mode";
import { recordCall } from "./ledger";
import { tokenParam } from "./max-tokens";
import { checkUsage } from "./usage-check";

export type BatchRow = typeof llmBatches.$inferSelect;
/** What a page shows of a batch. */
export type BatchState = Pick<BatchRow, "id" | "requests" | "completed" | "failed" | "error"> & { status: string };
export const batchState = (b: BatchRow): BatchState => ({
  id: b.id,
  status: b.status,
  requests: b.requests,
  completed: b.completed,
  failed: b.failed,
  error: b.error,
});

/** States after which nothing more happens to a batch. */
export const FINISHED_BATCH: readonly LlmBatchStatus[] = ["ingested", "failed", "expired", "cancelled"];

export function batchesOfRun(db: Db, judgeRunId: number): BatchRow[] {
  return db.select().from(llmBatches).where(eq(llmBatches.judgeRunId, judgeRunId)).all();
}

export function batchesOfExperiment(db: Db, experimentId: number): BatchRow[] {
  return db.select().from(llmBatches).where(eq(llmBatches.experimentId, experimentId)).orderBy(llmBatches.id).all();
}

/**
 * Writes the calls as a JSONL file, uploads it and creates the batch; the row is written first (a crash
 * leaves it to poll or redo). Its origin: a campaign's judge run, or an experiment.
 */
export async function submitBatch(
  db: Db,
  client: ModelClient,
  calls: CollectedCall[],
  judgeRunId: number | null,
  experimentId: number | null = null,
): Promise<BatchRow> {
  if (!calls.length) throw new InvalidInputError("a batch needs at least one call");
  const cfg = client.config(calls[0].config);
  if (calls.some((c) => c.config !== cfg.name)) throw new InvalidInputError("a batch goes to one model configuration");
  const row = db
    .insert(llmBatches)
    .values({
      judgeRunId,
      experimentId,
      config: cfg.name,
      endpoint: cfg.baseURL,
      model: cfg.model,
      requests: calls.length,
      status: "validating",
      lines: calls.map((c): BatchLine => ({ key: c.cacheKey, origin: c.origin, purpose: c.purpose, role: c.role, replicate: c.replicate })),
    })
    .returning()
    .get();
  try {
    const lines = calls.map((c) => {
      // The endpoint's JSON mode, as the online call would ask (a line refused for it is asked again online, which steps down).
      const format = responseFormat(cfg.jsonMode, c.schema, c.purpose);
      return JSON.stringify({
        custom_id: c.cacheKey,
        method: "POST",
        url: "/v1/chat/completions",
        body: { model: c.model, messages: c.messages, ...c.params, ...(format ? { response_format: format } : {}) },
      });
    });
    const sdk = client.sdkFor(cfg);
    const file = await sdk.files.create({
      file: await toFile(Buffer.from(lines.join("\n") + "\n"), `pal-batch-${row.id}.jsonl`),
      purpose: "batch",
    });
    const batch = await sdk.batches.create({ input_file_id: file.id, endpoint: "/v1/chat/completions", completion_window: "24h" });
    return db
      .update(llmBatches)
      .set({ remoteId: batch.id, inputFileId: file.id, status: batch.status as LlmBatchStatus, updatedAt: Date.now() })
      .where(eq(llmBatches.id, row.id))
      .returning()
      .get();
  } catch (e) {
    const msg = redactSecrets(e instanceof Error ? e.message : String(e));
    db.update(llmBatches)
      .set({ status: "failed", error: `submitting the batch failed: ${msg}`.slice(0, 500), updatedAt: Date.now() })
      .where(eq(llmBatches.id, row.id))
      .run();
    throw new InvalidInputError(`${cfg.baseURL}: the Batch API refused the batch (${msg}); is batch mode supported by this endpoint?`);
  }
}

type OutputLine = {
  custom_id: string;
  response?: {
    status_code: number;
    body?: { choices?: Array<{ message?: { content?: string | null }; finish_reason?: string | null }>; usage?: Record<string, unknown> };
  } | null;
  error?: { message?: string } | null;
};

/** Remote states after which the batch's output (all of it, or what it finished before it stopped) can be read. */
const REMOTE_DONE = ["completed", "cancelled", "expired", "failed"];

/**
 * Asks the endpoint how the batch is doing and, once it has stopped (completed, or cancelled, expired
 * or failed after answering some lines), reads its output: `calls` maps each cache key to the call it
 * answers, validated and cached as an online reply; a line whose call this process does not hold (its
 * run was cancelled, or judged it meanwhile) is still recorded in the ledger against the call's origin
 * (llm_batches.lines), as a reply not used. Every line the endpoint answered is paid for, so every
 * one reaches the ledger. Returns the row as it now is.
 */
export async function pollBatch(db: Db, client: ModelClient, batch: BatchRow, calls: Map<string, CollectedCall>): Promise<BatchRow> {
  if (FINISHED_BATCH.includes(batch.status) || !batch.remoteId) return batch;
  const sdk = client.sdkFor(client.config(batch.config));
  const remote = await sdk.batches.retrieve(batch.remoteId);
  const counts = remote.request_counts;
  const set = (v: Partial<BatchRow>) =>
    db
      .update(llmBatches)
      .set({ ...v, updatedAt: Date.now() })
      .where(eq(llmBatches.id, batch.id))
      .returning()
      .get();
  if (!REMOTE_DONE.includes(remote.status)) {
    return set({
      status: remote.status as LlmBatchStatus,
      completed: counts?.completed ?? 0,
      failed: counts?.failed ?? 0,
      error: remote.errors?.data?.[0]?.message ? redactSecrets(remote.errors.data[0].message) : null,
    });
  }
  const read = async (id: string | null | undefined) => (id ? await (await sdk.files.content(id)).text() : "");
  const text = `${await read(remote.output_file_id)}\n${await read(remote.error_file_id)}`;
  const lines = new Map((batch.lines ?? []).map((l) => [l.key, l]));
  // One transaction: the batch is ingested once, all of it or none of it.
  db.$client.transaction(() => {
    for (const line of text.split("\n")) {
      if (!line.trim()) continue;
      const out = JSON.parse(line) as OutputLine;
      const body = out.response?.body;
      const ok = !!out.response && out.response.status_code < 300;
      const content = body?.choices?.[0]?.message?.content ?? "";
      const error = out.error?.message ? redactSecrets(out.error.message) : `HTTP ${out.response?.status_code ?? "?"}`;
      const call = calls.get(out.custom_id);
      // A line that failed generated nothing; an answered one's usage is checked like an online reply's (usage-check.ts).
      const usage = ok
        ? checkUsage(body?.usage, {
            prompt: call?.messages,
            outputBudget: tokenParam(call?.params.max_tokens) ?? tokenParam(call?.params.max_completion_tokens),
          })
        : { promptTokens: 0, completionTokens: 0, cachedTokens: 0, reasoningTokens: 0 };
      if (call) {
        client.acceptBatchReply(call, content, usage, ok ? "ok" : "error", error, body?.choices?.[0]?.finish_reason);
        continue;
      }
      const meta = lines.get(out.custom_id);
      if (!meta) continue; // not a line of ours (a batch from before lines were kept: its run holds every call)
      recordCall(db, {
        origin: meta.origin,
        purpose: meta.purpose,
        role: meta.role,
        config: batch.config,
        endpoint: batch.endpoint,
        model: batch.model,
        cacheKey: meta.key,
        cacheHit: false,
        replicate: meta.replicate,
        attempt: 1,
        status: "failed",
        error: ok ? "batch: the reply came after its run stopped or no longer needed it; not used" : `batch: ${error}`,
        rawReply: ok ? content : null,
        ...usage,
      });
    }
    set({
      status: remote.status === "completed" ? "ingested" : (remote.status as LlmBatchStatus),
      outputFileId: remote.output_file_id ?? null,
      completed: counts?.completed ?? 0,
      failed: counts?.failed ?? 0,
      error: remote.errors?.data?.[0]?.message ?? null,
    });
  })();
  return db.select().from(llmBatches).where(eq(llmBatches.id, batch.id)).get()!;
}

/**
 * Asks the endpoint to cancel the batch. The row takes the state the endpoint answers ("cancelling"
 * while lines already started finish; "completed" when it was too late), so it is polled on until it
 * has stopped and what it answered is read into the ledger (pollBatch; `calls`: those this process
 * holds, whose replies are cached for the online calls that replace the batch). A batch never
 * submitted is cancelled at once.
 */
export async function cancelBatch(
  db: Db,
  client: ModelClient,
  batch: BatchRow,
  calls: Map<string, CollectedCall> = new Map(),
): Promise<BatchRow> {
  if (FINISHED_BATCH.includes(batch.status)) return batch;
  const set = (status: LlmBatchStatus) =>
    db.update(llmBatches).set({ status, updatedAt: Date.now() }).where(eq(llmBatches.id, batch.id)).returning().get();
  if (!batch.remoteId) return set("cancelled");
  const remote = await client.sdkFor(client.config(batch.config)).batches.cancel(batch.remoteId);
  // A batch that stopped (cancelled, or completed before the cancel) is read now; one cancelling is polled later.
  const now = set(remote.status === "cancelled" || remote.status === "completed" ? "cancelling" : (remote.status as LlmBatchStatus));
  return remote.status === "cancelled" || remote.status === "completed" ? pollBatch(db, client, now, calls) : now;
}
