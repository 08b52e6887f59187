/**
 * Whether the usage an endpoint reports can be believed. A hostile or broken server could report
 * negative counts (a dollar spend cap would then never be reached, and the ledger would hold negative
 * spend), counts that are not integers, or counts no request of this size can produce. Such usage is
 * not believed: the call is recorded with its usage unknown (tokens 0), and the spend guard counts it
 * at its worst case, the prompt's bound plus the output budget sent (spend-guard.ts).
 */

export type UsageCounts = { promptTokens: number; completionTokens: number; cachedTokens: number; reasoningTokens: number };

/** The usage to record: believed counts, or zeros with `usageUnknown`, why (`usageNote`) and the call's worst case. */
export type CheckedUsage = UsageCounts & {
  usageUnknown?: true;
  usageNote?: string;
  worstCase?: { promptTokens: number; completionTokens: number };
};

export type SentRequest = {
  /** What the prompt was made of (chat messages, embedding inputs); absent when not known here (a batch line of a stopped run). */
  prompt?: unknown;
  /** The output budget sent (max_tokens); null or absent: none (an embedding's is 0). */
  outputBudget?: number | null;
  /** An embedding request generates nothing: its completion count may be absent. */
  embedding?: boolean;
};

/** Tokens a chat template adds around each message and the prompt (role markers, system preamble): generous. */
const PER_MESSAGE = 64;
const PER_PROMPT = 512;
/** A reply may count a few tokens past the budget (an end-of-turn marker). */
const BUDGET_SLACK = 16;
/** With no request at hand, no prompt this large exists (the longest context windows are a few million tokens). */
const NO_PROMPT_CEILING = 10_000_000;
/** The worst-case completion when no budget was sent. */
const NO_BUDGET_WORST = 32_768;

/**
 * The most prompt tokens a request can hold: any tokenizer makes at most one token per UTF-8 byte
 * (byte-level BPE), plus the template's own tokens. The serialized form only adds to the bound.
 */
export function promptTokenBound(prompt: unknown): number {
  const text = typeof prompt === "string" ? prompt : JSON.stringify(prompt ?? "");
  const parts = Array.isArray(prompt) ? prompt.length : 1;
  return Buffer.byteLength(text, "utf8") + PER_MESSAGE * parts + PER_PROMPT;
}

const isCount = (v: unknown): v is number => typeof v === "number" && Number.isSafeInteger(v) && v >= 0;

/** Checks a reply's `usage` object (OpenAI form) against the request it answers. */
export function checkUsage(raw: unknown, sent: SentRequest = {}): CheckedUsage {
  const budget = sent.embedding ? 0 : (sent.outputBudget ?? null);
  const bound = sent.prompt === undefined ? NO_PROMPT_CEILING : promptTokenBound(sent.prompt);
  const worstCase = {
    promptTokens: sent.prompt === undefined ? 0 : bound,
    completionTokens: budget ?? NO_BUDGET_WORST,
  };
  const unknown = (why: string): CheckedUsage => ({
    promptTokens: 0,
    completionTokens: 0,
    cachedTokens: 0,
    reasoningTokens: 0,
    usageUnknown: true,
    usageNote: `usage not believed: ${why}; counted at its worst case against the spend cap`,
    worstCase,
  });
  if (raw === null || typeof raw !== "object") return unknown("the endpoint reported no usage");
  const u = raw as {
    prompt_tokens?: unknown;
    completion_tokens?: unknown;
    prompt_tokens_details?: { cached_tokens?: unknown } | null;
    completion_tokens_details?: { reasoning_tokens?: unknown } | null;
  };
  const show = (v: unknown) => (typeof v === "string" ? JSON.stringify(v.slice(0, 40)) : String(v));
  const prompt = u.prompt_tokens;
  // An embedding reports no completion; a chat reply that leaves it out reports nothing we can count.
  const completion = sent.embedding && u.completion_tokens === undefined ? 0 : u.completion_tokens;
  for (const [name, v] of Object.entries({ prompt_tokens: prompt, completion_tokens: completion }))
    if (!isCount(v)) return unknown(`${name} ${v === undefined ? "missing" : `${show(v)} is not a count`}`);
  const [p, c] = [prompt, completion] as number[];
  if (p > bound) return unknown(`prompt_tokens ${p} is far above what the request can hold (at most ${bound})`);
  if (budget !== null && c > budget + BUDGET_SLACK) return unknown(`completion_tokens ${c} is above the output budget sent (${budget})`);
  // The details cost nothing apart (they are parts of the two counts): a detail that is not a count is
  // dropped, one above its whole is cut to it (servers differ in how they count a cached prefix).
  const detail = (v: unknown, whole: number) => (isCount(v) ? Math.min(v, whole) : 0);
  const ca = detail(u.prompt_tokens_details?.cached_tokens, p);
  const r = detail(u.completion_tokens_details?.reasoning_tokens, c);
  return { promptTokens: p, completionTokens: c, cachedTokens: ca, reasoningTokens: r };
}

/** The tokens a reply's usage counts, for the tokens-per-minute limiter (rate-limit.ts): 0 for what is not a count. */
export function usageTokens(raw: unknown): number {
  const u = (raw ?? {}) as { prompt_tokens?: unknown; completion_tokens?: unknown };
  const n = (v: unknown) => (isCount(v) ? Math.min(v, NO_PROMPT_CEILING) : 0);
  return n(u.prompt_tokens) + n(u.completion_tokens);
}
