/**
 * Sums of ledger rows (llm_calls) as results, exports and the CLI show them: every paid attempt counts
 * (accepted, invalid, or failed after a reply), and what went to unusable replies is shown apart.
 */
import type { ExperimentConfig } from "@/lib/experiments/config";
import { CUT_OFF } from "@/lib/llm/max-tokens";

export type Ledger = {
  /** Accepted replies (cache hits included). */
  calls: number;
  cacheHits: number;
  /** Paid attempts: every row that reached the endpoint, whatever became of it. */
  requests: number;
  /** Tokens of every paid attempt. */
  promptTokens: number;
  completionTokens: number;
  /** Attempts whose reply could not be used (invalid, or the last of a failed call) and their tokens. */
  unusableAttempts: number;
  unusablePromptTokens: number;
  unusableCompletionTokens: number;
  /** Requests that reached the endpoint with no usage reported (timed out, dropped): their tokens are not in the sums. */
  usageUnknown: number;
  /** Of the unusable attempts, replies that ended at max_tokens (finish_reason "length"). */
  cutOff: number;
  /** USD at the config's prices (absent: no prices). */
  cost?: number | null;
};

export type LedgerSumRow = {
  role: string;
  ok: number;
  hits: number;
  requests: number;
  p: number;
  c: number;
  paidP: number;
  paidC: number;
  bad: number;
  badP: number;
  badC: number;
  unknown: number;
  cut: number;
};

/** The SELECT columns of LedgerSumRow over `llm_calls c`, to be grouped by role (and whatever else). */
export const LEDGER_COLUMNS = `c.role AS role, coalesce(sum(c.status = 'ok'), 0) AS ok, coalesce(sum(c.cache_hit), 0) AS hits,
  coalesce(sum(c.cache_hit = 0), 0) AS requests,
  coalesce(sum(max(c.prompt_tokens, 0)), 0) AS p, coalesce(sum(max(c.completion_tokens, 0)), 0) AS c,
  coalesce(sum(CASE WHEN c.cache_hit = 0 THEN max(c.prompt_tokens, 0) ELSE 0 END), 0) AS paidP,
  coalesce(sum(CASE WHEN c.cache_hit = 0 THEN max(c.completion_tokens, 0) ELSE 0 END), 0) AS paidC,
  coalesce(sum(c.status IN ('invalid', 'failed')), 0) AS bad,
  coalesce(sum(CASE WHEN c.status IN ('invalid', 'failed') THEN max(c.prompt_tokens, 0) ELSE 0 END), 0) AS badP,
  coalesce(sum(CASE WHEN c.status IN ('invalid', 'failed') THEN max(c.completion_tokens, 0) ELSE 0 END), 0) AS badC,
  coalesce(sum(c.usage_unknown), 0) AS unknown,
  coalesce(sum(c.error LIKE '${CUT_OFF}%'), 0) AS cut`;

export function emptyLedger(priced: boolean): Ledger {
  const l: Ledger = {
    calls: 0,
    cacheHits: 0,
    requests: 0,
    promptTokens: 0,
    completionTokens: 0,
    unusableAttempts: 0,
    unusablePromptTokens: 0,
    unusableCompletionTokens: 0,
    usageUnknown: 0,
    cutOff: 0,
  };
  if (priced) l.cost = 0;
  return l;
}

/** Adds rows (by role) into a ledger; cost from the paid (non-cached) tokens at `prices` (USD per million). */
export function addRows(l: Ledger, rows: readonly LedgerSumRow[], prices: ExperimentConfig["prices"]): Ledger {
  for (const r of rows) {
    l.calls += r.ok;
    l.cacheHits += r.hits;
    l.requests += r.requests;
    l.promptTokens += r.p;
    l.completionTokens += r.c;
    l.unusableAttempts += r.bad;
    l.unusablePromptTokens += r.badP;
    l.unusableCompletionTokens += r.badC;
    l.usageUnknown += r.unknown;
    l.cutOff += r.cut ?? 0;
    const price = prices[r.role as keyof typeof prices];
    if (typeof l.cost === "number" && price) l.cost += (r.paidP * price.prompt + r.paidC * price.completion) / 1e6;
  }
  return l;
}

export function sumLedger(rows: readonly LedgerSumRow[], prices: ExperimentConfig["prices"]): Ledger {
  return addRows(emptyLedger(Object.keys(prices).length > 0), rows, prices);
}
