import OpenAI, { APIError } from "openai";
import PQueue from "p-queue";
import pRetry from "p-retry";
import { inArray } from "drizzle-orm";
import type { z } from "zod";
import type { Db } from "@/db/client";
import { stmt } from "@/db/statements";
import { embeddingCache, type ModelRole } from "@/db/schema";
import { resolveModelConfig, type ModelConfig } from "./config";
import { checkReply } from "./json";
import { hashOf } from "./hash";
import { recordCall, type LedgerRow, type Origin } from "./ledger";
import { ModelCallError } from "./errors";
import { correctionMessage } from "./correction";

export type ChatMessage = { role: "system" | "user" | "assistant"; content: string };

export type ChatOptions<T> = {
  /** The role whose endpoint answers (default "assistant"). */
  role?: ModelRole;
  /** A named configuration of that role, e.g. "judge:gscore" (default: the role itself). */
  config?: string;
  messages: ChatMessage[];
  /** When given, the reply must contain JSON that this schema accepts. */
  schema?: z.ZodType<T>;
  /** The data set's language: a reply in the other language is regenerated. */
  language?: "zh" | "en";
  /** Deliberate repeats of the same request get distinct indices (0 = the first). */
  replicate?: number;
  /** Request parameters (temperature, max_tokens, seed...) over the configuration's own. */
  params?: Record<string, unknown>;
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
};

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
};

const sameOrigin = (a: Origin, b: Origin) =>
  (a.memoryVersionId ?? null) === (b.memoryVersionId ?? null) &&
  (a.jobId ?? null) === (b.jobId ?? null) &&
  (a.judgeRunId ?? null) === (b.judgeRunId ?? null);

type Core = {
  db: Db;
  opts: Required<Omit<ModelClientOptions, "origin" | "concurrency">> & { concurrency: Partial<Record<ModelRole, number>> };
  limits: Map<ModelRole, PQueue>;
  /** Groups whose waiting calls are dropped (cancelGroup). Group names are unique per build. */
  cancelled: Set<string>;
  /** Replies paid for by prefetches and not yet asked for by the build (see prefetching()). */
  prefetchPaid: Set<string>;
  /** Cache-hit ledger rows of deferring views, until their owner writes them (takeDeferredHits). */
  deferred: LedgerRow[];
  /** Chat calls queued but not started, by cache key: their queue, priority and group. */
  waiting: Map<string, { role: ModelRole; priority: number; group: string | null }>;
  sdks: Map<string, OpenAI>;
  inflight: Map<string, Promise<{ text: string; usage: Usage }>>;
  stats: ClientStats;
};

const envInt = (name: string, dflt: number) => {
  const v = Number(process.env[name]);
  return Number.isFinite(v) && v >= 0 ? v : dflt;
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** HTTP statuses worth another try: rate limits, timeouts, conflicts and server errors. */
function isRetryable(e: unknown): boolean {
  if (e instanceof APIError && e.status !== undefined) return e.status === 408 || e.status === 409 || e.status === 429 || e.status >= 500;
  return true; // connection dropped, timed out, or a garbled body
}

/**
 * A 200 whose body is not a chat completion (a proxy's HTML error page, an empty body) is a transport
 * failure, retried and recorded as one, not a model reply to correct with a regeneration.
 */
function requireCompletion(r: OpenAI.Chat.Completions.ChatCompletion): OpenAI.Chat.Completions.ChatCompletion {
  if (typeof r !== "object" || r === null || !Array.isArray(r.choices))
    throw new Error(`the endpoint answered with something that is not a chat completion: ${JSON.stringify(r).slice(0, 80)}`);
  return r;
}

function describe(e: unknown): string {
  if (e instanceof OpenAI.APIConnectionTimeoutError) return "timeout";
  if (e instanceof APIError && e.status !== undefined) return `HTTP ${e.status}: ${e.message}`.slice(0, 300);
  if (e instanceof Error) return `${e.constructor.name}: ${e.message}`.slice(0, 300);
  return String(e);
}

/** Retry-After (seconds or an HTTP date) or retry-after-ms, in ms. */
function retryAfterMs(e: unknown): number | null {
  if (!(e instanceof APIError) || !e.headers) return null;
  const ms = Number(e.headers.get("retry-after-ms"));
  if (Number.isFinite(ms) && ms > 0) return ms;
  const h = e.headers.get("retry-after");
  if (!h) return null;
  const s = Number(h);
  if (Number.isFinite(s)) return s * 1000;
  const at = Date.parse(h);
  return Number.isFinite(at) ? Math.max(0, at - Date.now()) : null;
}

/**
 * The one way to reach a model. Every call goes through the persistent cache (an identical request,
 * replicate index included, is answered from SQLite at no cost), de-duplicates identical requests in
 * flight, waits for a per-role concurrency slot, retries transport failures with exponential backoff
 * and jitter (honouring Retry-After), validates the reply (JSON + zod schema + language) and asks
 * again up to `regenerations` times, and writes one ledger row per attempt. A step that cannot
 * succeed throws ModelCallError, already recorded with the raw reply.
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
    const core: Core = {
      db,
      opts: {
        timeoutMs: options.timeoutMs ?? envInt("PAL_LLM_TIMEOUT_MS", 120_000),
        retries: options.retries ?? envInt("PAL_LLM_RETRIES", 6),
        retryBaseMs: options.retryBaseMs ?? 1000,
        retryMaxMs: options.retryMaxMs ?? 60_000,
        regenerations: options.regenerations ?? 2,
        concurrency: options.concurrency ?? {},
      },
      limits: new Map(),
      waiting: new Map(),
      deferred: [],
      prefetchPaid: new Set(),
      cancelled: new Set(),
      sdks: new Map(),
      inflight: new Map(),
      stats: { requests: 0, cacheHits: 0, failed: 0, promptTokens: 0, completionTokens: 0 },
    };
    return new ModelClient(core, {
      origin: options.origin ?? {},
      replicate: 0,
      priority: 0,
      group: null,
      deferHits: false,
      prefetch: false,
    });
  }

  /** The same client (cache, limits, shared counters) writing another origin to the ledger; fresh `callsMade`. */
  withOrigin(origin: Origin): ModelClient {
    return new ModelClient(this.core, { ...this.view, origin });
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
    this.core.cancelled.add(group);
  }

  /** Moves every call of `group` still waiting for a slot up to `priority` (a prefetch now needed). */
  raiseGroup(group: string, priority: number): void {
    for (const [id, w] of this.core.waiting) if (w.group === group) this.raiseTo(id, priority);
  }

  get stats(): Readonly<ClientStats> {
    return this.core.stats;
  }

  config(name: string): ModelConfig {
    return resolveModelConfig(this.core.db, name);
  }

  private queue(role: ModelRole): PQueue {
    let q = this.core.limits.get(role);
    if (!q) {
      q = new PQueue({ concurrency: Math.max(1, this.core.opts.concurrency[role] ?? envInt("PAL_LLM_CONCURRENCY", 4)) });
      this.core.limits.set(role, q);
    }
    return q;
  }

  /**
   * Runs `fn` in one of the role's concurrency slots, queued by this view's priority. With an `id`
   * (a chat call's cache key) a later identical call of higher priority can move it up (raise).
   */
  private limit(role: ModelRole, id?: string): <R>(fn: () => Promise<R>) => Promise<R> {
    const queue = this.queue(role);
    const waiting = this.core.waiting;
    const cancelled = this.core.cancelled;
    return <R>(fn: () => Promise<R>) => {
      const { priority, group } = this.view;
      // A call of a cancelled group gives its slot back without reaching the model.
      const run = () => {
        if (group !== null && cancelled.has(group)) return Promise.reject(new Error(`not asked: group ${group} was cancelled`));
        return fn();
      };
      if (id === undefined) return queue.add(run, { priority }) as Promise<R>;
      waiting.set(id, { role, priority, group });
      return queue.add(
        () => {
          waiting.delete(id);
          return run();
        },
        { priority, id },
      ) as Promise<R>;
    };
  }

  /** A call waiting for a slot moves up to `priority` (never down). */
  private raiseTo(id: string, priority: number): void {
    const w = this.core.waiting.get(id);
    if (!w || w.priority >= priority) return;
    w.priority = priority;
    this.queue(w.role).setPriority(id, priority);
  }

  private sdk(cfg: ModelConfig): OpenAI {
    // Retries are ours (one ledger row per attempt), so the SDK makes exactly one try.
    // One SDK instance per endpoint and key: building one per call showed up in the experiments bench.
    const key = `${cfg.baseURL}\u0000${cfg.apiKey ?? ""}`;
    let sdk = this.core.sdks.get(key);
    if (!sdk) {
      sdk = new OpenAI({ apiKey: cfg.apiKey ?? "not-set", baseURL: cfg.baseURL, timeout: this.core.opts.timeoutMs, maxRetries: 0 });
      this.core.sdks.set(key, sdk);
    }
    return sdk;
  }

  /**
   * Runs `once` with transport retries. Every failed try is written to the ledger at once as `row`
   * with its attempt number (`tries` counts the tries of one logical call, regenerations included;
   * the caller writes the successful one).
   */
  private async withRetries<R>(
    once: () => Promise<R>,
    row: Omit<LedgerRow, "cacheHit" | "attempt" | "status">,
    tries: { n: number },
  ): Promise<R> {
    const { retries, retryBaseMs, retryMaxMs } = this.core.opts;
    const started = Date.now();
    return pRetry(
      async () => {
        this.core.stats.requests++;
        return once();
      },
      {
        retries,
        minTimeout: retryBaseMs,
        maxTimeout: retryMaxMs,
        factor: 2,
        randomize: true,
        onFailedAttempt: async ({ error, retriesLeft }) => {
          const willRetry = retriesLeft > 0 && isRetryable(error);
          tries.n++;
          recordCall(this.core.db, {
            ...row,
            cacheHit: false,
            attempt: tries.n,
            status: willRetry ? "retry" : "failed",
            error: describe(error),
            latencyMs: Date.now() - started,
          });
          // The server said how long to wait: wait that long (p-retry adds its own backoff after).
          const after = willRetry ? retryAfterMs(error) : null;
          if (after !== null) await sleep(Math.min(after, retryMaxMs));
        },
        shouldRetry: ({ error }) => isRetryable(error),
      },
    );
  }

  async chat<T = string>(o: ChatOptions<T>): Promise<ChatResult<T>> {
    const role = o.role ?? "assistant";
    const cfg = this.config(o.config ?? role);
    this.local.calls++;
    const origin = o.origin ?? this.origin;
    const replicate = o.replicate ?? this.replicate;
    const params = { ...cfg.params, ...o.params };
    const cacheKey = hashOf({ endpoint: cfg.baseURL, model: cfg.model, messages: o.messages, params, replicate });
    const base = { origin, purpose: o.purpose, role, config: cfg.name, endpoint: cfg.baseURL, model: cfg.model, cacheKey, replicate };
    const db = this.core.db;
    const zero: Usage = { promptTokens: 0, completionTokens: 0, cachedTokens: 0, reasoningTokens: 0 };

    const hit = (text: string, how: "cache" | "shared"): ChatResult<T> | null => {
      const checked = checkReply(text, o.schema, o.language);
      if (!checked.ok) return null; // cached under an older schema: ask again
      const result = { value: checked.value, text, cacheHit: true, cacheKey, usage: zero };
      if (this.view.prefetch || this.core.prefetchPaid.delete(cacheKey)) return result;
      this.core.stats.cacheHits++;
      const row: LedgerRow = {
        ...base,
        cacheHit: true,
        attempt: 1,
        status: "ok",
        error: how === "shared" ? "shared with a concurrent identical call" : null,
      };
      if (this.view.deferHits) this.core.deferred.push(row);
      else recordCall(db, row);
      return result;
    };

    const cached = stmt(db, "SELECT response FROM llm_cache WHERE key = ?").get(cacheKey) as { response: string } | undefined;
    if (cached) {
      const r = hit(cached.response, "cache");
      if (r) return r;
    }
    const pending = this.core.inflight.get(cacheKey);
    if (pending) {
      // A call joining an identical one still waiting for a slot lends it its own priority.
      this.raiseTo(cacheKey, this.view.priority);
      const shared = await pending;
      const r = hit(shared.text, "shared");
      if (r) return r;
    }

    let value: T | undefined;
    const run = this.limit(
      role,
      cacheKey,
    )(async () => {
      const sdk = this.sdk(cfg);
      const tries = { n: 0 };
      let messages = o.messages;
      let lastRaw: string | null = null;
      let lastError = "";
      for (let round = 0; round <= this.core.opts.regenerations; round++) {
        const started = Date.now();
        let reply: OpenAI.Chat.Completions.ChatCompletion;
        try {
          reply = await this.withRetries(
            () =>
              sdk.chat.completions
                .create({
                  model: cfg.model,
                  messages,
                  ...params,
                } as OpenAI.Chat.Completions.ChatCompletionCreateParamsNonStreaming)
                .then(requireCompletion),
            base,
            tries,
          );
        } catch (e) {
          this.core.stats.failed++;
          throw new ModelCallError(`${o.purpose}: the model endpoint failed (${describe(e)})`, o.purpose, lastRaw, "transport");
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
        const raw = reply.choices?.[0]?.message?.content ?? "";
        const checked = checkReply(raw, o.schema, o.language);
        const latencyMs = Date.now() - started;
        if (checked.ok) {
          // The ledger row and the cache entry in one commit.
          db.$client.transaction(() => {
            recordCall(db, { ...base, cacheHit: false, attempt, status: "ok", latencyMs, ...usage });
            if (this.view.prefetch) this.core.prefetchPaid.add(cacheKey);
            // A cached reply that an updated schema rejects is replaced by the accepted one.
            stmt(
              db,
              `INSERT INTO llm_cache (key, endpoint, model, request, response, prompt_tokens, completion_tokens, cached_tokens, reasoning_tokens)
               VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
               ON CONFLICT (key) DO UPDATE SET response = excluded.response, prompt_tokens = excluded.prompt_tokens,
                 completion_tokens = excluded.completion_tokens, cached_tokens = excluded.cached_tokens, reasoning_tokens = excluded.reasoning_tokens`,
            ).run(
              cacheKey,
              cfg.baseURL,
              cfg.model,
              JSON.stringify({ messages: o.messages, params, replicate }),
              raw,
              usage.promptTokens,
              usage.completionTokens,
              usage.cachedTokens,
              usage.reasoningTokens,
            );
          })();
          value = checked.value;
          return { text: raw, usage };
        }
        lastRaw = raw;
        lastError = checked.error;
        const last = round === this.core.opts.regenerations;
        recordCall(db, {
          ...base,
          cacheHit: false,
          attempt,
          status: last ? "failed" : "invalid",
          error: checked.error,
          rawReply: raw,
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
    });
    this.core.inflight.set(cacheKey, run);
    try {
      const { text, usage } = await run;
      return { value: value as T, text, cacheHit: false, cacheKey, usage };
    } finally {
      this.core.inflight.delete(cacheKey);
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
    const found = new Map<string, number[]>();
    const unique = [...new Set(keys)];
    for (let i = 0; i < unique.length; i += 500) {
      for (const r of db
        .select()
        .from(embeddingCache)
        .where(inArray(embeddingCache.key, unique.slice(i, i + 500)))
        .all()) {
        found.set(r.key, Array.from(new Float32Array(r.vector.buffer, r.vector.byteOffset, r.vector.byteLength / 4)));
      }
    }
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
        this.limit("embedding")(async () => {
          const started = Date.now();
          const tries = { n: 0 };
          let res: OpenAI.Embeddings.CreateEmbeddingResponse;
          try {
            res = await this.withRetries(
              () => sdk.embeddings.create({ model: cfg.model, input: chunk.map(([, t]) => t) }),
              { ...base, cacheKey: null },
              tries,
            );
          } catch (e) {
            this.core.stats.failed++;
            throw new ModelCallError(`${o.purpose}: the embedding endpoint failed (${describe(e)})`, o.purpose, null, "transport");
          }
          const promptTokens = res.usage?.prompt_tokens ?? 0;
          this.core.stats.promptTokens += promptTokens;
          recordCall(db, {
            ...base,
            cacheKey: null,
            cacheHit: false,
            attempt: tries.n + 1,
            status: "ok",
            promptTokens,
            latencyMs: Date.now() - started,
          });
          const insert = db.$client.prepare("insert or ignore into embedding_cache (key, model, dimensions, vector) values (?, ?, ?, ?)");
          db.$client.transaction(() => {
            for (const d of res.data) {
              const [key] = chunk[d.index];
              const v = d.embedding as number[];
              found.set(
                key,
                v.map((x) => Math.fround(x)),
              );
              insert.run(key, cfg.model, v.length, Buffer.from(new Float32Array(v).buffer));
            }
          })();
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
