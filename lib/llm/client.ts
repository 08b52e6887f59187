import OpenAI from "openai";
import type { z } from "zod";
import type { Db } from "@/db/client";
import type { JsonMode, ModelRole } from "@/db/schema";

const fallbackLabel = (m: JsonMode) => (m === "off" ? "plain replies" : m);
import { resolveModelConfig, type ModelConfig } from "./config";
import { checkReply } from "./json";
import { hashOf } from "./hash";
import { GroupCommit, JSON_MODE_REFUSED, recordCall, sentParams, type LedgerRow, type Origin } from "./ledger";
import { ModelCallError } from "./errors";
import { correctionMessage } from "./correction";
import { describe, isDeterministic, isJsonModeRefusal, isTimeout, usageUnknown, withRetries } from "./retry";
import { draining, requestStarted } from "./inflight";
import { CUT_OFF, isMaxTokensRefusal, maxTokensFor, tokenParam } from "./max-tokens";
import { splitReasoning } from "./reasoning";
import { decodeEmbedding } from "./vectors";
import { keepAliveFetch } from "./http-fetch";
import { offlineFetch } from "./offline-fetch";
import { GroupCancelledError, RoleQueues } from "./queue";
import { acquire, release } from "./rate-limit";
import { responseFormat } from "./json-mode";
import { recordJsonModeRefusal, weakerJsonMode } from "./endpoints";
import { cachedReply, cachedVectors, storeReply, storeVectors } from "./cache";
import type { ChatMessage, Lang } from "./types";
import { envNumber } from "@/lib/config";
import { RunPausedError, type SpendGuard } from "./spend-guard";

export type { ChatMessage, Lang } from "./types";

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
  /** Per-request timeout (default PAL_LLM_TIMEOUT_MS or 120 s). */
  timeoutMs?: number;
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

/** What distinguishes the views of one client. */
type View = {
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

/** Request parameters per role, as a run's record declares them. */
export type RoleParams = Partial<Record<ModelRole, Record<string, unknown>>>;

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
};

/** Thrown by a collecting view instead of sending a call (the batch will answer it). */
export class DeferredCallError extends Error {
  constructor(readonly cacheKey: string) {
    super("deferred to a batch");
  }
}

const sameOrigin = (a: Origin, b: Origin) =>
  (a.memoryVersionId ?? null) === (b.memoryVersionId ?? null) &&
  (a.jobId ?? null) === (b.jobId ?? null) &&
  (a.judgeRunId ?? null) === (b.judgeRunId ?? null);

type Core = {
  db: Db;
  opts: Required<Omit<ModelClientOptions, "origin" | "concurrency">>;
  queues: RoleQueues;
  /** Replies paid for by prefetches and not yet asked for by the build (see prefetching()). */
  prefetchPaid: Set<string>;
  /** Cache-hit ledger rows of deferring views, until their owner writes them (takeDeferredHits). */
  deferred: LedgerRow[];
  sdks: Map<string, OpenAI>;
  /** Resolved configurations by name, until when they are used without reading them again (config()). */
  configs: Map<string, { cfg: ModelConfig; until: number }>;
  /** Endpoints (base URL and model) that answered JSON mode with a 400, and what they said. */
  jsonModeRefused: Map<string, string>;
  /** Where such a refusal left a configuration without a defined endpoint (one step weaker each time). */
  jsonModeNow: Map<string, JsonMode>;
  /** Endpoints (base URL and model) that want max_completion_tokens instead of max_tokens. */
  completionTokensParam: Set<string>;
  /** Endpoints (base URL and model) seen thinking: their budgets get reasoning headroom. */
  reasoning: Set<string>;
  /** Requests sent and not yet answered, by a sequence number: when each was sent. */
  sent: Map<number, number>;
  nextSent: number;
  inflight: Map<string, Promise<{ text: string; usage: Usage }>>;
  /** Writes the accepted replies of one event-loop turn in one transaction. */
  commits: GroupCommit;
  stats: ClientStats;
};

/** Reasoning models add their thinking beside the content (DeepSeek, vLLM: reasoning_content; some: reasoning). */
type ReasoningMessage = OpenAI.Chat.Completions.ChatCompletionMessage & { reasoning_content?: string | null; reasoning?: string | null };

const CONFIG_TTL_MS = 1000;

const ZERO: Usage = { promptTokens: 0, completionTokens: 0, cachedTokens: 0, reasoningTokens: 0 };

/**
 * A 200 whose body is not a chat completion (a proxy's HTML error page, an empty body) is a transport
 * failure, retried and recorded as one, not a model reply to correct with a regeneration.
 */
function requireCompletion(r: OpenAI.Chat.Completions.ChatCompletion): OpenAI.Chat.Completions.ChatCompletion {
  if (typeof r !== "object" || r === null || !Array.isArray(r.choices))
    throw new Error(`the endpoint answered with something that is not a chat completion: ${JSON.stringify(r).slice(0, 80)}`);
  return r;
}

/**
 * The one way to reach a model. Every call goes through the persistent cache (cache.ts: an identical
 * request, replicate index included, is answered from SQLite at no cost), de-duplicates identical
 * requests in flight, waits for a per-role concurrency slot (queue.ts), retries transport failures
 * with exponential backoff and jitter, honouring Retry-After (retry.ts), validates the reply (JSON +
 * zod schema or a parse function, + language) and asks again up to `regenerations` times with what
 * was wrong, and writes one ledger row per attempt. A step that cannot succeed throws ModelCallError,
 * already recorded with the raw reply.
 */
export class ModelClient {
  /** Logical calls made through this view (not its siblings): what one answer or step cost. */
  private readonly local = { calls: 0, cacheHits: 0 };

  private constructor(
    private readonly core: Core,
    private readonly view: View,
  ) {}

  /** Where this view's calls are recorded in the ledger. */
  get origin(): Origin {
    return this.view.origin;
  }

  /** Replicate index for calls that name none (an experiment's repeat: its answers are distinct paid calls). */
  get replicate(): number {
    return this.view.replicate;
  }

  /** Logical calls (chat and embed) made through this view, cache hits included. */
  get callsMade(): number {
    return this.local.calls;
  }

  static create(db: Db, options: ModelClientOptions = {}): ModelClient {
    const concurrency = options.concurrency ?? {};
    const core: Core = {
      db,
      opts: {
        timeoutMs: options.timeoutMs ?? envNumber("PAL_LLM_TIMEOUT_MS", 120_000),
        retries: options.retries ?? envNumber("PAL_LLM_RETRIES", 6),
        timeoutRetries: options.timeoutRetries ?? 1,
        retryBaseMs: options.retryBaseMs ?? 1000,
        retryMaxMs: options.retryMaxMs ?? 60_000,
        regenerations: options.regenerations ?? 2,
        offline: options.offline ?? false,
      },
      queues: new RoleQueues((role) => concurrency[role] ?? envNumber("PAL_LLM_CONCURRENCY", 4)),
      deferred: [],
      prefetchPaid: new Set(),
      sdks: new Map(),
      configs: new Map(),
      jsonModeRefused: new Map(),
      jsonModeNow: new Map(),
      completionTokensParam: new Set(),
      reasoning: new Set(),
      sent: new Map(),
      nextSent: 0,
      inflight: new Map(),
      commits: new GroupCommit(db),
      stats: { requests: 0, cacheHits: 0, failed: 0, promptTokens: 0, completionTokens: 0, timeouts: 0, cutOff: 0 },
    };
    return new ModelClient(core, {
      origin: options.origin ?? {},
      replicate: 0,
      priority: 0,
      group: null,
      deferHits: false,
      prefetch: false,
      guard: null,
      collect: null,
      roleParams: {},
    });
  }

  /**
   * The same client whose calls carry a run's parameters for their role (temperature, top_p, the
   * output budget, a model name), under what a call names itself. Every consumer of a run (a task, a
   * method answering, a memory build, a judge) gets a view made with the run's parameters, so none
   * can reach the model without them.
   */
  forRun(roleParams: RoleParams): ModelClient {
    return new ModelClient(this.core, { ...this.view, roleParams });
  }

  /** The same client whose calls are watched by a run's spend guard (see lib/llm/spend-guard.ts). */
  withGuard(guard: SpendGuard | null): ModelClient {
    return new ModelClient(this.core, { ...this.view, guard });
  }

  /**
   * The same client whose calls the cache cannot answer are handed to `collect` and not sent: they
   * throw DeferredCallError. A batch is built this way from the very calls the run will make.
   */
  collecting(collect: (call: CollectedCall) => void): ModelClient {
    return new ModelClient(this.core, { ...this.view, collect });
  }

  /** One ledger row, written at once and shown to the view's spend guard. */
  private record(row: LedgerRow): void {
    recordCall(this.core.db, row);
    this.view.guard?.observe(row);
  }

  /**
   * A reply that came back in a batch, accepted as an online reply would be: validated, then the ledger
   * row and the cache entry written together (or, when invalid, the paid attempt recorded with the raw
   * reply, and the call made online later asks again).
   */
  acceptBatchReply(
    call: CollectedCall,
    raw: string,
    usage: Usage,
    status: "ok" | "error",
    error?: string,
    /** The line's finish_reason: "length" is a reply cut off at max_tokens, never accepted. */
    finishReason?: string | null,
  ): boolean {
    const db = this.core.db;
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
    if (status === "error") {
      this.record({ ...base, status: "failed", error: `batch: ${error ?? "the request failed"}` });
      return false;
    }
    const split = splitReasoning(raw, null);
    const cutOff = finishReason === "length";
    if (cutOff) this.core.stats.cutOff++;
    const checked = cutOff
      ? { ok: false as const, error: `${CUT_OFF} (${String(call.params.max_tokens ?? call.params.max_completion_tokens ?? "?")} tokens)` }
      : checkReply(split.answer, { schema: call.schema, parse: call.parse, language: call.language });
    if (!checked.ok) {
      this.record({ ...base, status: "invalid", error: `batch: ${checked.error}`, rawReply: raw });
      return false;
    }
    db.$client.transaction(() => {
      this.record({ ...base, status: "ok", rawReply: split.reasoning !== null ? split.raw : null });
      storeReply(db, {
        key: call.cacheKey,
        endpoint: call.endpoint,
        model: call.model,
        request: { messages: call.messages, params: call.params, replicate: call.replicate },
        response: split.answer,
        usage,
      });
    })();
    return true;
  }

  /** The SDK client of a configuration (one per endpoint and key), for the Batch API. */
  sdkFor(cfg: ModelConfig): OpenAI {
    return this.sdk(cfg);
  }

  /**
   * The same client (cache, limits, shared counters) writing another origin to the ledger; fresh
   * `callsMade`. The experiment a view's calls are made for is kept unless `origin` names another: a
   * memory build run for an experiment records its version and the experiment.
   */
  withOrigin(origin: Origin): ModelClient {
    const experimentId = origin.experimentId ?? this.view.origin.experimentId;
    return new ModelClient(this.core, { ...this.view, origin: experimentId !== undefined ? { ...origin, experimentId } : origin });
  }

  /** The same client whose calls default to replicate index `replicate` (kept by withOrigin). */
  withReplicate(replicate: number): ModelClient {
    return new ModelClient(this.core, { ...this.view, replicate });
  }

  /** The same client whose calls wait in the per-role queue with `priority` (kept by withOrigin). */
  withPriority(priority: number): ModelClient {
    return new ModelClient(this.core, { ...this.view, priority, group: null, prefetch: false });
  }

  /**
   * The same client for calls made ahead of need, queued as `group` with `priority` (raiseGroup moves
   * them up when they are due). Their replies only warm the cache, so the ledger gets one row per
   * call the algorithm makes: a prefetch records its paid attempts, and the identical call made
   * later in the build records nothing for the reply the prefetch paid for; a prefetch answered
   * from the cache or by a call in flight records nothing at all.
   */
  prefetching(group: string, priority: number): ModelClient {
    return new ModelClient(this.core, { ...this.view, priority, group, prefetch: true });
  }

  /**
   * The same client whose cache hits are not written at once but kept until takeDeferredHits():
   * an experiment job writes them with its result in one transaction. A hit costs nothing, so a
   * crash that loses one loses no money, and the redone job records it again. Paid attempts are
   * always written at once.
   */
  deferringHits(): ModelClient {
    return new ModelClient(this.core, { ...this.view, deferHits: true });
  }

  /** The cache-hit rows of one origin deferred so far, handed over once. */
  takeDeferredHits(origin: Origin): LedgerRow[] {
    const mine = this.core.deferred.filter((r) => sameOrigin(r.origin, origin));
    if (mine.length) this.core.deferred = this.core.deferred.filter((r) => !sameOrigin(r.origin, origin));
    return mine;
  }

  /** Deferred cache-hit rows of one origin not yet handed over (what a job's usage must count). */
  deferredHitsOf(origin: Origin): number {
    return this.core.deferred.filter((r) => sameOrigin(r.origin, origin)).length;
  }

  /** Calls of `group` still waiting for a slot are dropped when they get one (a build that stopped: its prefetches are not needed). */
  cancelGroup(group: string): void {
    this.core.queues.cancelGroup(group);
  }

  /** Moves every call of `group` still waiting for a slot up to `priority` (a prefetch now needed). */
  raiseGroup(group: string, priority: number): void {
    this.core.queues.raiseGroup(group, priority);
  }

  get stats(): Readonly<ClientStats> {
    return this.core.stats;
  }

  /** Requests of this client (every view) sent and not yet answered: a slow run shows it is waiting, not dead. */
  inFlight(): InFlight {
    let oldest: number | null = null;
    for (const at of this.core.sent.values()) if (oldest === null || at < oldest) oldest = at;
    return { calls: this.core.sent.size, oldestStartedAt: oldest };
  }

  /** Endpoints that refused JSON mode in this process ("base URL model" → the error), for the Models page and the CLI. */
  jsonModeNotes(): Array<{ endpoint: string; error: string }> {
    return [...this.core.jsonModeRefused].map(([k, error]) => ({ endpoint: k.replace("\u0000", " "), error }));
  }

  /**
   * The configuration `name` resolves to, read again at most every CONFIG_TTL_MS: resolving reads the
   * settings and the endpoint and decrypts its key, which at many calls a second was a fifth of a
   * call's CPU. A long-running worker still follows an admin's change within a second.
   */
  config(name: string): ModelConfig {
    const now = Date.now();
    const memo = this.core.configs.get(name);
    if (memo && memo.until > now) return memo.cfg;
    const cfg = resolveModelConfig(this.core.db, name);
    this.core.configs.set(name, { cfg, until: now + CONFIG_TTL_MS });
    return cfg;
  }

  /** Runs `fn` in one of the role's slots with this view's priority and group; `id` lets an identical call raise it. */
  private inSlot<R>(role: ModelRole, cfg: ModelConfig, fn: () => Promise<R>, id?: string): Promise<R> {
    // A configuration on a defined endpoint waits in the endpoint's queue, shared by every role on it.
    const e = cfg.endpoint;
    const lane = e ? { endpoint: e.name, concurrency: e.concurrency ?? envNumber("PAL_LLM_CONCURRENCY", 4) } : undefined;
    return this.core.queues.run(role, { priority: this.view.priority, group: this.view.group, id }, fn, lane);
  }

  private sdk(cfg: ModelConfig): OpenAI {
    // Retries are ours (one ledger row per attempt), so the SDK makes exactly one try.
    // One SDK instance per endpoint and key: building one per call showed up in the experiments bench.
    const timeout = cfg.endpoint?.timeoutMs ?? this.core.opts.timeoutMs;
    const key = `${cfg.baseURL}\u0000${cfg.apiKey ?? ""}\u0000${timeout}`;
    let sdk = this.core.sdks.get(key);
    if (!sdk) {
      // keepAliveFetch: node:http with keep-alive sockets, a third of the global fetch's CPU per request (http-fetch.ts).
      sdk = new OpenAI({
        apiKey: cfg.apiKey ?? "not-set",
        baseURL: cfg.baseURL,
        timeout,
        maxRetries: 0,
        fetch: this.core.opts.offline ? offlineFetch : keepAliveFetch,
      });
      this.core.sdks.set(key, sdk);
    }
    return sdk;
  }

  /**
   * Runs `once` with transport retries. Every failed try is written to the ledger at once as `row`
   * with its attempt number (`tries` counts the tries of one logical call, regenerations included;
   * the caller writes the successful one).
   */
  private retrying<R>(
    once: () => Promise<R>,
    row: Omit<LedgerRow, "cacheHit" | "attempt" | "status">,
    tries: { n: number },
    /** A failure the caller handles by asking again differently (a refused JSON mode): noted as "retry". */
    handled: (e: unknown) => string | null = () => null,
    /** The configuration's defined endpoint, whose requests/min and tokens/min every try honours. */
    limits: ModelConfig["endpoint"] = null,
  ): Promise<R> {
    const { retries, retryBaseMs, retryMaxMs, timeoutRetries } = this.core.opts;
    const started = Date.now();
    return withRetries(
      async () => {
        // A process finishing (lib/llm/inflight.ts) sends nothing new: a regeneration or retry would be a new paid request.
        if (draining()) throw new RunPausedError("the process is finishing: no new model request");
        this.view.guard?.admit();
        // Across processes on this database (lib/llm/rate-limit.ts); no endpoint: nothing to wait for.
        const usageId = limits ? await acquire(this.core.db, limits) : null;
        this.core.stats.requests++;
        // In flight until it settles (its row is written then: its failure row below, or the caller's reply row a
        // few turns later); a process that stops waiting records it with its tokens unknown.
        let abandoned = false;
        const sent = requestStarted(() => {
          abandoned = true;
          this.record({
            ...row,
            cacheHit: false,
            attempt: tries.n + 1,
            status: "failed",
            error: "the process stopped before the reply came (the request reached the endpoint)",
            latencyMs: Date.now() - started,
            usageUnknown: true,
          });
        });
        let tokens = 0;
        let r: R;
        const seq = this.core.nextSent++;
        this.core.sent.set(seq, Date.now());
        try {
          r = await once();
          const u = (r as { usage?: { prompt_tokens?: number; completion_tokens?: number } } | null)?.usage;
          tokens = (u?.prompt_tokens ?? 0) + (u?.completion_tokens ?? 0);
        } catch (e) {
          if (!abandoned) throw e;
        } finally {
          this.core.sent.delete(seq);
          // Answered or failed, the in-flight place is free for every process.
          if (limits) release(this.core.db, limits, usageId, tokens);
          sent();
        }
        // Recorded already when the process stopped waiting: what comes back now is neither recorded nor used.
        if (abandoned) throw new RunPausedError("the process stopped before the reply came");
        return r!;
      },
      { retries, baseMs: retryBaseMs, maxMs: retryMaxMs, timeoutRetries },
      (error, willRetry) => {
        if (error instanceof RunPausedError) return; // refused before it was sent: nothing paid, nothing to record
        if (isTimeout(error)) this.core.stats.timeouts++;
        tries.n++;
        const note = handled(error);
        this.record({
          ...row,
          cacheHit: false,
          attempt: tries.n,
          status: willRetry || note !== null ? "retry" : "failed",
          error: note ?? describe(error),
          latencyMs: Date.now() - started,
          usageUnknown: usageUnknown(error),
        });
      },
    );
  }

  async chat<T = string>(o: ChatOptions<T>): Promise<ChatResult<T>> {
    const role = o.role ?? "assistant";
    const cfg = this.config(o.config ?? role);
    this.local.calls++;
    const origin = o.origin ?? this.origin;
    const replicate = o.replicate ?? this.replicate;
    const params = { ...cfg.params, ...this.view.roleParams[role], ...o.params };
    const cacheKey = hashOf({ endpoint: cfg.baseURL, model: cfg.model, messages: o.messages, params, replicate });
    const base = { origin, purpose: o.purpose, role, config: cfg.name, endpoint: cfg.baseURL, model: cfg.model, cacheKey, replicate };
    const db = this.core.db;
    const check = (text: string) => checkReply(text, o);
    const endpointKey = `${cfg.baseURL}\u0000${cfg.model}`;

    const hit = (text: string, how: "cache" | "shared"): ChatResult<T> | null => {
      const checked = check(text);
      if (!checked.ok) return null; // cached under an older schema or parser: ask again
      const result = { value: checked.value, text, cacheHit: true, cacheKey, usage: ZERO };
      if (this.view.prefetch || this.core.prefetchPaid.delete(cacheKey)) return result;
      this.core.stats.cacheHits++;
      const row: LedgerRow = {
        ...base,
        cacheHit: true,
        attempt: 1,
        status: "ok",
        error: how === "shared" ? "shared with a concurrent identical call" : null,
        sent: sentParams(params),
      };
      if (this.view.deferHits) this.core.deferred.push(row);
      else recordCall(db, row);
      return result;
    };

    const cached = cachedReply(db, cacheKey);
    if (cached !== null) {
      const r = hit(cached, "cache");
      if (r) return r;
    }
    if (this.view.collect) {
      this.view.collect({
        cacheKey,
        origin,
        purpose: o.purpose,
        role,
        config: cfg.name,
        endpoint: cfg.baseURL,
        model: cfg.model,
        messages: o.messages,
        // A batch line asks with the same output budget as the online call would.
        params:
          "max_tokens" in params || "max_completion_tokens" in params
            ? params
            : {
                ...params,
                max_tokens: maxTokensFor({
                  purpose: o.purpose,
                  explicit: o.maxTokens,
                  headroom: cfg.maxTokensHeadroom,
                  reasoning: this.core.reasoning.has(endpointKey),
                }),
              },
        replicate,
        schema: o.schema as z.ZodType<unknown> | undefined,
        parse: o.parse as ((text: string) => unknown) | undefined,
        language: o.language,
      });
      throw new DeferredCallError(cacheKey);
    }
    const pending = this.core.inflight.get(cacheKey);
    if (pending) {
      // A call joining an identical one still waiting for a slot lends it its own priority.
      this.core.queues.raise(cacheKey, this.view.priority);
      const shared = await pending;
      const r = hit(shared.text, "shared");
      if (r) return r;
    }

    // Registered as in flight before anything is awaited, so an identical call arriving meanwhile
    // shares this one instead of paying for its own.
    let leaveGuard = (): void => {};
    let value: T | undefined;
    const guard = this.view.guard;
    const run = (async () => {
      // A guarded run goes one call at a time until its first accepted reply (lib/llm/spend-guard.ts).
      if (guard) leaveGuard = await guard.enter();
      const sdk = this.sdk(cfg);
      const tries = { n: 0 };
      let messages = o.messages;
      let lastRaw: string | null = null;
      let lastError = "";
      // JSON mode (response_format) when the configuration asks for it and the endpoint has not refused it:
      // a defined endpoint remembers a refusal in the database (cfg.jsonMode is already the fallback), a role's own URL in this process.
      let jsonMode: JsonMode = !o.schema ? "off" : cfg.endpoint ? cfg.jsonMode : (this.core.jsonModeNow.get(endpointKey) ?? cfg.jsonMode);
      // The output budget: the role's own max_tokens, else the step's (max-tokens.ts); a reply cut off at it is invalid.
      const roleBudget = tokenParam(params.max_tokens) ?? tokenParam(params.max_completion_tokens);
      const { max_tokens: _mt, max_completion_tokens: _mct, ...rest } = params;
      void _mt;
      void _mct;
      let cutOffs = 0;
      for (let round = 0; round <= this.core.opts.regenerations; round++) {
        let started = Date.now();
        const format = responseFormat(jsonMode, o.schema as z.ZodType<unknown> | undefined, o.purpose);
        const budget = maxTokensFor({
          purpose: o.purpose,
          explicit: o.maxTokens,
          role: roleBudget,
          headroom: cfg.maxTokensHeadroom,
          reasoning: this.core.reasoning.has(endpointKey),
          cutOffs,
        });
        const budgetParam =
          "max_completion_tokens" in params || this.core.completionTokensParam.has(endpointKey) ? "max_completion_tokens" : "max_tokens";
        // What this round's request carries, for every ledger row it leaves (the protocol audit reads them).
        const sent = sentParams({ ...rest, [budgetParam]: budget }, format ? jsonMode : "off");
        const sentRow = { ...base, sent };
        let reply: OpenAI.Chat.Completions.ChatCompletion;
        try {
          // The slot is held for the request (with its transport retries) only: checking the reply
          // and committing it need no place at the endpoint, and at many calls in flight holding the
          // place through the commit's turn costs a visible share of the endpoint's rate.
          const asked = messages;
          reply = await this.inSlot(
            role,
            cfg,
            () => {
              started = Date.now(); // the latency of the request, not of the wait for a slot
              return this.retrying(
                () =>
                  sdk.chat.completions
                    .create({
                      model: cfg.model,
                      messages: asked,
                      ...rest,
                      [budgetParam]: budget,
                      ...(format ? { response_format: format } : {}),
                    } as OpenAI.Chat.Completions.ChatCompletionCreateParamsNonStreaming)
                    .then(requireCompletion),
                sentRow,
                tries,
                (e) =>
                  format && isJsonModeRefusal(e)
                    ? `${JSON_MODE_REFUSED} (${jsonMode}: ${describe(e)}); ${cfg.baseURL} ${cfg.model} falls back to ${fallbackLabel(weakerJsonMode(jsonMode))}`
                    : budgetParam === "max_tokens" && isMaxTokensRefusal(describe(e))
                      ? `the endpoint wants max_completion_tokens (${describe(e)}); asked again with it`
                      : null,
                cfg.endpoint,
              );
            },
            cacheKey,
          );
        } catch (e) {
          if (e instanceof RunPausedError || e instanceof GroupCancelledError) throw e; // nothing was sent
          if (budgetParam === "max_tokens" && isMaxTokensRefusal(describe(e))) {
            this.core.completionTokensParam.add(endpointKey);
            round--;
            continue;
          }
          if (format && isJsonModeRefusal(e)) {
            // Detected once: this and every later call asks one step weaker (json_schema → json_object → off).
            if (cfg.endpoint) {
              jsonMode = recordJsonModeRefusal(db, cfg.endpoint.id, jsonMode, describe(e));
              this.core.configs.clear(); // the configurations on this endpoint now carry the weaker mode
            } else {
              this.core.jsonModeRefused.set(endpointKey, describe(e));
              jsonMode = weakerJsonMode(jsonMode);
              this.core.jsonModeNow.set(endpointKey, jsonMode);
            }
            round--;
            continue;
          }
          this.core.stats.failed++;
          throw new ModelCallError(
            `${o.purpose}: the model endpoint failed (${describe(e)})`,
            o.purpose,
            lastRaw,
            "transport",
            isDeterministic(e),
          );
        }
        const attempt = ++tries.n;
        const u = reply.usage;
        const usage: Usage = {
          promptTokens: u?.prompt_tokens ?? 0,
          completionTokens: u?.completion_tokens ?? 0,
          cachedTokens: u?.prompt_tokens_details?.cached_tokens ?? 0,
          reasoningTokens: u?.completion_tokens_details?.reasoning_tokens ?? 0,
        };
        this.core.stats.promptTokens += usage.promptTokens;
        this.core.stats.completionTokens += usage.completionTokens;
        // A reasoning model's thinking is kept for the ledger and never parsed.
        const message = reply.choices?.[0]?.message as ReasoningMessage | undefined;
        const split = splitReasoning(message?.content ?? "", message?.reasoning_content ?? message?.reasoning ?? null);
        const raw = split.answer;
        const rawReply = split.reasoning !== null ? split.raw : null;
        if (split.reasoning !== null || usage.reasoningTokens > 0) this.core.reasoning.add(endpointKey);
        // A reply that ended at the budget is incomplete, whatever it parses as: asked again with a larger budget.
        const cutOff = reply.choices?.[0]?.finish_reason === "length";
        if (cutOff) {
          cutOffs++;
          this.core.stats.cutOff++;
        }
        const checked: ReturnType<typeof check> = cutOff ? { ok: false, error: `${CUT_OFF} (${budget} tokens)` } : check(raw);
        const latencyMs = Date.now() - started;
        const servedModel = typeof reply.model === "string" && reply.model ? reply.model : null;
        if (checked.ok) {
          // The ledger row and the cache entry in one commit, shared with the other replies of this
          // event-loop turn; the call goes on only once it has committed (GroupCommit in ledger.ts).
          const row: LedgerRow = { ...sentRow, cacheHit: false, attempt, status: "ok", latencyMs, rawReply, servedModel, ...usage };
          this.view.guard?.observe(row);
          await this.core.commits.write(() => {
            recordCall(db, row);
            // A cached reply that an updated schema rejects is replaced by the accepted one.
            storeReply(db, {
              key: cacheKey,
              endpoint: cfg.baseURL,
              model: cfg.model,
              request: { messages: o.messages, params, replicate },
              response: raw,
              usage,
            });
          });
          if (this.view.prefetch) this.core.prefetchPaid.add(cacheKey);
          value = checked.value;
          return { text: raw, usage };
        }
        lastRaw = raw;
        lastError = checked.error;
        const last = round === this.core.opts.regenerations;
        this.record({
          ...sentRow,
          servedModel,
          cacheHit: false,
          attempt,
          status: last ? "failed" : "invalid",
          error: checked.error,
          rawReply: rawReply ?? raw,
          latencyMs,
          ...usage,
        });
        // Ask again with the rejected reply and what was wrong with it, so a deterministic model
        // does not repeat itself.
        messages = [
          ...o.messages,
          { role: "assistant", content: raw },
          { role: "user", content: correctionMessage(checked.error, o.language, !!o.schema) },
        ];
      }
      this.core.stats.failed++;
      throw new ModelCallError(
        `${o.purpose}: no valid reply after ${this.core.opts.regenerations + 1} tries (${lastError})`,
        o.purpose,
        lastRaw,
        "invalid",
      );
    })();
    this.core.inflight.set(cacheKey, run);
    try {
      const { text, usage } = await run;
      return { value: value as T, text, cacheHit: false, cacheKey, usage };
    } finally {
      this.core.inflight.delete(cacheKey);
      leaveGuard();
    }
  }

  /**
   * Embeds texts with the embedding role (or a named config), one vector per text in order.
   * Vectors are cached per (endpoint, model, text); only the missing ones are requested, in batches.
   */
  async embed(texts: string[], o: { purpose: string; origin?: Origin; config?: string; batchSize?: number }): Promise<number[][]> {
    const cfg = this.config(o.config ?? "embedding");
    this.local.calls++;
    const origin = o.origin ?? this.origin;
    const db = this.core.db;
    const keyOf = (t: string) => hashOf({ endpoint: cfg.baseURL, model: cfg.model, text: t });
    const keys = texts.map(keyOf);
    const found = cachedVectors(db, keys);
    const missing = [...new Map(texts.map((t, i) => [keys[i], t])).entries()].filter(([k]) => !found.has(k));
    const base = {
      origin,
      purpose: o.purpose,
      role: "embedding" as const,
      config: cfg.name,
      endpoint: cfg.baseURL,
      model: cfg.model,
      replicate: 0,
    };
    if (missing.length === 0 && texts.length > 0) {
      this.core.stats.cacheHits++;
      const row: LedgerRow = { ...base, cacheKey: null, cacheHit: true, attempt: 1, status: "ok" };
      if (this.view.deferHits) this.core.deferred.push(row);
      else recordCall(db, row);
    }
    const batch = o.batchSize ?? 64;
    const sdk = this.sdk(cfg);
    await Promise.all(
      Array.from({ length: Math.ceil(missing.length / batch) }, (_, b) => missing.slice(b * batch, (b + 1) * batch)).map((chunk) =>
        this.inSlot("embedding", cfg, async () => {
          const started = Date.now();
          const tries = { n: 0 };
          let res: OpenAI.Embeddings.CreateEmbeddingResponse;
          try {
            res = await this.retrying(
              // base64 asked for explicitly, so the SDK hands the reply over as it came (vectors.ts decodes either form).
              () => sdk.embeddings.create({ model: cfg.model, input: chunk.map(([, t]) => t), encoding_format: "base64" }),
              { ...base, cacheKey: null },
              tries,
              undefined,
              cfg.endpoint,
            );
          } catch (e) {
            if (e instanceof RunPausedError) throw e;
            this.core.stats.failed++;
            throw new ModelCallError(`${o.purpose}: the embedding endpoint failed (${describe(e)})`, o.purpose, null, "transport");
          }
          const promptTokens = res.usage?.prompt_tokens ?? 0;
          this.core.stats.promptTokens += promptTokens;
          this.record({
            ...base,
            cacheKey: null,
            cacheHit: false,
            attempt: tries.n + 1,
            status: "ok",
            promptTokens,
            latencyMs: Date.now() - started,
          });
          const entries = res.data.map((d) => ({ key: chunk[d.index][0], vector: decodeEmbedding(d.embedding) }));
          const stored = storeVectors(db, cfg.model, entries);
          entries.forEach((e, i) => found.set(e.key, stored[i]));
        }),
      ),
    );
    return keys.map((k) => {
      const v = found.get(k);
      if (!v) throw new ModelCallError(`${o.purpose}: the embedding endpoint returned no vector for a text`, o.purpose, null, "invalid");
      return v;
    });
  }
}
