/**
 * The model client's types: what a call asks (ChatOptions), what it gets (ChatResult), how a client is
 * made (ModelClientOptions) and what distinguishes its views (View). No code beyond one error class.
 */
import type { z } from "zod";
import type { ModelRole } from "@/db/schema";
import type { Origin } from "./ledger";
import type { SpendGuard } from "./spend-guard";
import type { ChatMessage, Lang } from "./types";

export type ChatOptions<T> = {
  /** The role whose endpoint answers (default "assistant"). */
  role?: ModelRole;
  /** A named configuration of that role, e.g. "judge:gscore" (default: the role itself). */
  config?: string;
  messages: ChatMessage[];
  /** When given, the reply must contain JSON that this schema accepts. */
  schema?: z.ZodType<T>;
  /**
   * For free-text replies: turns the reply text into the value, throwing (with what is wrong) when it
   * cannot. A rejected reply is asked again with the reason, like an invalid JSON reply.
   */
  parse?: (text: string) => T;
  /** The data set's language: a reply in the other language is regenerated. */
  language?: Lang;
  /** Deliberate repeats of the same request get distinct indices (0 = the first). */
  replicate?: number;
  /** Request parameters (temperature, seed...) over the configuration's own. */
  params?: Record<string, unknown>;
  /**
   * The step's output budget (max_tokens), when its purpose's default (max-tokens.ts) does not fit; a
   * role's own max_tokens wins over both.
   */
  maxTokens?: number;
  /** Names the step for the ledger, e.g. "h2memory.log-graph" or "task.requirement". */
  purpose: string;
  /** Overrides the client's origin for this call. */
  origin?: Origin;
};

export type Usage = { promptTokens: number; completionTokens: number; cachedTokens: number; reasoningTokens: number };

export const ZERO_USAGE: Usage = { promptTokens: 0, completionTokens: 0, cachedTokens: 0, reasoningTokens: 0 };

export type ChatResult<T> = {
  /** The validated value (parsed JSON with a schema, else the reply text). */
  value: T;
  /** The accepted reply text. */
  text: string;
  cacheHit: boolean;
  cacheKey: string;
  usage: Usage;
};

export type ModelClientOptions = {
  /** Per-request timeout (default PAL_LLM_TIMEOUT_MS or 120 s); a streamed reply's first chunk must come within it. */
  timeoutMs?: number;
  /**
   * Streamed replies: the longest pause between two chunks (default PAL_LLM_STREAM_IDLE_MS, else the
   * request timeout). A reply that keeps arriving is not cut by the request timeout.
   */
  streamIdleMs?: number;
  /**
   * Streamed replies: the overall cap is the request timeout plus this much per token of the output
   * budget (default 500 ms: a model slower than 2 tokens/s is cut).
   */
  streamMsPerToken?: number;
  /** Stream chat replies where the endpoint streams (default PAL_LLM_STREAM, on). */
  stream?: boolean;
  /**
   * Only requests with at least this output budget are streamed (default PAL_LLM_STREAM_MIN_TOKENS or 4096):
   * parsing a stream costs about twice a whole reply's CPU (bench endpoint-throughput), and a reply of up
   * to ~1,000 tokens comes within the request timeout even at ~10 tokens/s; the long ones (H2Memory's
   * outlines and log graphs, 4,096) are those that outlive it. Lower it for a slow local model.
   */
  streamMinTokens?: number;
  /** Transport retries after the first attempt (default PAL_LLM_RETRIES or 6). */
  retries?: number;
  /** Of those, how many may follow a timeout (default 1): a model that took the whole timeout once likely will again. */
  timeoutRetries?: number;
  /** First backoff delay, doubled per retry, with jitter (default 1000 ms). */
  retryBaseMs?: number;
  /** Longest backoff or Retry-After honoured (default 60 s). */
  retryMaxMs?: number;
  /** Extra replies asked for when one is invalid or in the wrong language (default 2). */
  regenerations?: number;
  /** Parallel requests per role (default PAL_LLM_CONCURRENCY or 4). */
  concurrency?: Partial<Record<ModelRole, number>>;
  /** The origin written to the ledger when a call names none. */
  origin?: Origin;
  /** Sends nothing: a request the cache cannot answer fails with HTTP 404 "no bundled reply" (a bundle's replay, lib/bundles/verify.ts). */
  offline?: boolean;
};

/** Counters of one client (and every scoped view of it) since it was created. */
export type ClientStats = {
  /** HTTP requests that reached (or tried to reach) an endpoint, retries included. */
  requests: number;
  /** Logical calls answered from the persistent cache or a concurrent identical call. */
  cacheHits: number;
  /** Logical calls that ended in a ModelCallError. */
  failed: number;
  promptTokens: number;
  completionTokens: number;
  /** Requests that ran into the timeout. */
  timeouts: number;
  /** Replies that ended at max_tokens (finish_reason "length"), each an invalid reply. */
  cutOff: number;
};

/** Requests on their way now (of a whole client): how many, and since when the oldest waits for its reply. */
export type InFlight = { calls: number; oldestStartedAt: number | null };

/** Request parameters per role, as a run's record declares them. */
export type RoleParams = Partial<Record<ModelRole, Record<string, unknown>>>;

/** What distinguishes the views of one client. */
export type View = {
  origin: Origin;
  replicate: number;
  /**
   * Queue priority of the view's calls (higher first; equal ones in arrival order). A memory build
   * gives each session's calls the user's remaining sessions, so when users share the slots the one
   * with the longest chain still to walk is never kept waiting behind work that has slack.
   */
  priority: number;
  /** A name for the view's queued calls, so they can be moved up together (raiseGroup). */
  group: string | null;
  /** Cache hits kept for takeDeferredHits() instead of written at once. */
  deferHits: boolean;
  /** Calls made ahead of need (a memory build's prefetch): see prefetching(). */
  prefetch: boolean;
  /** The run's spend guard: sees every ledger row of the view's calls and may refuse further attempts. */
  guard: SpendGuard | null;
  /** Collecting for a batch: a call the cache cannot answer is handed here and not sent (see collecting()). */
  collect: ((call: CollectedCall) => void) | null;
  /**
   * The run's parameters per role (temperature, top_p, max_tokens, a model name): every call of that
   * role through this view carries them, under the call's own params (see forRun()).
   */
  roleParams: RoleParams;
};

/** A client's first view: its origin, nothing else set (the other views are made from it). */
export const plainView = (origin: Origin = {}): View => ({
  origin,
  replicate: 0,
  priority: 0,
  group: null,
  deferHits: false,
  prefetch: false,
  guard: null,
  collect: null,
  roleParams: {},
});

/** A chat call as a batch sends it, with what validating its reply needs. */
export type CollectedCall = {
  cacheKey: string;
  origin: Origin;
  purpose: string;
  role: ModelRole;
  config: string;
  endpoint: string;
  model: string;
  messages: ChatMessage[];
  params: Record<string, unknown>;
  replicate: number;
  schema?: z.ZodType<unknown>;
  parse?: (text: string) => unknown;
  language?: Lang;
  /** A reply cut off at its budget is kept as returned (the run's cut-off rule). */
  keepCutOff?: boolean;
};

/** Thrown by a collecting view instead of sending a call (the batch will answer it). */
export class DeferredCallError extends Error {
  constructor(readonly cacheKey: string) {
    super("deferred to a batch");
  }
}
