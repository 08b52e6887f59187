/**
 * Reading a reply: its usage (readUsage, the ONE place the endpoint's token counts are read, for chat
 * replies streamed or not, cut streams and embeddings), its reasoning (kept for the ledger, never
 * parsed) and its finish_reason (a reply that ended at max_tokens is incomplete, whatever it parses as).
 */
import type { Usage } from "./client-types";
import type { Core } from "./core";
import { CUT_OFF } from "./max-tokens";
import { splitReasoning } from "./reasoning";
import { checkUsage, promptTokenBound } from "./usage-check";
import type { LedgerRow } from "./ledger";

/** A chat reply as the transport hands it over, streamed or not. */
export type Completion = {
  content: string;
  /** reasoning_content (DeepSeek, vLLM) or reasoning, beside the content. */
  reasoning: string | null;
  finishReason: string | null;
  /** The model the endpoint says answered. */
  model: string | null;
  usage: Usage;
  /** The usage object as the endpoint reported it (checked by usage-check.ts before it is believed). */
  rawUsage: unknown;
  /** The usage was counted from the streamed chunks, not reported by the endpoint. */
  estimated?: boolean;
};

/** The usage object of an OpenAI-compatible reply (chat, stream's last chunk, embeddings). */
export type RawUsage = {
  prompt_tokens?: number;
  completion_tokens?: number;
  prompt_tokens_details?: { cached_tokens?: number } | null;
  completion_tokens_details?: { reasoning_tokens?: number } | null;
};

/** The endpoint's usage, read once for every kind of reply (absent counts: 0). */
export function readUsage(u: RawUsage | null | undefined): Usage {
  return {
    promptTokens: u?.prompt_tokens ?? 0,
    completionTokens: u?.completion_tokens ?? 0,
    cachedTokens: u?.prompt_tokens_details?.cached_tokens ?? 0,
    reasoningTokens: u?.completion_tokens_details?.reasoning_tokens ?? 0,
  };
}

export type ReadReply = {
  /** The reply without its reasoning: what is validated, cached and returned. */
  answer: string;
  /** What the ledger keeps when the reply had reasoning (null: the answer is the whole reply). */
  rawReply: string | null;
  usage: Usage;
  /** Why the reply cannot be accepted before it is checked (cut off at the budget), or null. */
  cutOff: string | null;
  servedModel: string | null;
  /** The tokens were counted from the stream's chunks (the endpoint reported none): the prompt's are unknown. */
  estimated: boolean;
  /** When the usage is unknown (estimated, or not believed): the ledger row's flag, why, and the call's worst case for the spend guard. */
  usageFlags: Pick<LedgerRow, "usageUnknown" | "usageNote" | "worstCase">;
};

/**
 * The reply's usage as it may be believed: a negative, fractional or impossible count (usage-check.ts)
 * is recorded as unknown and counted at the call's worst case; a stream's counted chunks are an estimate.
 */
function believedUsage(reply: Completion, budget: number, prompt: unknown): { usage: Usage; flags: ReadReply["usageFlags"] } {
  if (reply.estimated)
    return {
      usage: reply.usage,
      flags: { usageUnknown: true, worstCase: { promptTokens: promptTokenBound(prompt), completionTokens: budget } },
    };
  const c = checkUsage(reply.rawUsage, { prompt, outputBudget: budget });
  const usage = {
    promptTokens: c.promptTokens,
    completionTokens: c.completionTokens,
    cachedTokens: c.cachedTokens,
    reasoningTokens: c.reasoningTokens,
  };
  return { usage, flags: c.usageUnknown ? { usageUnknown: true, usageNote: c.usageNote, worstCase: c.worstCase } : {} };
}

/** Reads one chat reply, counting its tokens and noting an endpoint seen thinking or a reply cut off. */
export function readReply(core: Core, endpointKey: string, reply: Completion, budget: number, prompt: unknown): ReadReply {
  const { usage, flags } = believedUsage(reply, budget, prompt);
  core.stats.promptTokens += usage.promptTokens;
  core.stats.completionTokens += usage.completionTokens;
  const split = splitReasoning(reply.content, reply.reasoning);
  if (split.reasoning !== null || usage.reasoningTokens > 0) core.reasoning.add(endpointKey);
  const cutOff = reply.finishReason === "length";
  if (cutOff) core.stats.cutOff++;
  return {
    answer: split.answer,
    rawReply: split.reasoning !== null ? split.raw : null,
    usage,
    cutOff: cutOff ? `${CUT_OFF} (${budget} tokens)` : null,
    servedModel: reply.model || null,
    estimated: reply.estimated === true,
    usageFlags: flags,
  };
}
