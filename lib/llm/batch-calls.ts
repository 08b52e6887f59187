/**
 * Batch collection and batch replies. A collecting view hands each call the cache cannot answer to
 * its collector (with the output budget the online call would send) instead of sending it; a reply
 * that came back in the batch is accepted as an online reply would be: validated, then its ledger row
 * and cache entry written together, or, when invalid, the paid attempt recorded with the raw reply
 * (the call made online later asks again). The Batch API is never streamed.
 */
import type { z } from "zod";
import { DeferredCallError, type CollectedCall, type Usage, type View } from "./client-types";
import type { Core } from "./core";
import { checkReply } from "./json";
import { sentParams } from "./ledger";
import { recordRow, storeNow } from "./ledger-write";
import { CUT_OFF, KEPT_AS_RETURNED } from "./max-tokens";
import { splitReasoning } from "./reasoning";
import { budgetOf, type Call } from "./request";

/** Hands the call to the view's collector and throws DeferredCallError (the batch will answer it). */
export function collectCall<T>(core: Core, collect: (c: CollectedCall) => void, call: Call<T>): never {
  const { o, params } = call;
  collect({
    ...call.base,
    messages: o.messages,
    // A batch line asks with the same output budget as the online call would.
    params: "max_tokens" in params || "max_completion_tokens" in params ? params : { ...params, max_tokens: budgetOf(core, call, null, 0) },
    schema: o.schema as z.ZodType<unknown> | undefined,
    parse: o.parse as ((text: string) => unknown) | undefined,
    language: o.language,
    ...(call.keepCutOff ? { keepCutOff: true } : {}),
  });
  throw new DeferredCallError(call.cacheKey);
}

export type BatchLine = {
  raw: string;
  usage: Usage;
  status: "ok" | "error";
  error?: string;
  /** The line's finish_reason: "length" is a reply cut off at max_tokens, never accepted. */
  finishReason?: string | null;
};

/** Accepts one batch line for `call`; whether it was accepted (cached). */
export function acceptBatchLine(core: Core, view: View, call: CollectedCall, line: BatchLine): boolean {
  const { raw, usage } = line;
  const base = {
    origin: call.origin,
    purpose: call.purpose,
    role: call.role,
    config: call.config,
    endpoint: call.endpoint,
    model: call.model,
    cacheKey: call.cacheKey,
    replicate: call.replicate,
    cacheHit: false,
    attempt: 1,
    sent: sentParams(call.params),
    ...usage,
  };
  if (line.status === "error") {
    recordRow(core, view, { ...base, status: "failed", error: `batch: ${line.error ?? "the request failed"}` });
    return false;
  }
  const split = splitReasoning(raw, null);
  const ended = line.finishReason === "length";
  if (ended) core.stats.cutOff++;
  // A cut-off line is asked again online, unless the run keeps cut-off replies as returned (max-tokens.ts CUT_OFF_PARAM).
  const cutOff = ended && !call.keepCutOff;
  const checked = cutOff
    ? { ok: false as const, error: `${CUT_OFF} (${String(call.params.max_tokens ?? call.params.max_completion_tokens ?? "?")} tokens)` }
    : checkReply(split.answer, { schema: call.schema, parse: call.parse, language: call.language });
  if (!checked.ok) {
    recordRow(core, view, { ...base, status: "invalid", error: `batch: ${checked.error}`, rawReply: raw });
    return false;
  }
  storeNow(
    core,
    view,
    { ...base, status: "ok", rawReply: split.reasoning !== null ? split.raw : null, ...(ended ? { error: KEPT_AS_RETURNED } : {}) },
    {
      key: call.cacheKey,
      endpoint: call.endpoint,
      model: call.model,
      request: { messages: call.messages, params: call.params, replicate: call.replicate },
      response: split.answer,
      usage,
    },
  );
  return true;
}
