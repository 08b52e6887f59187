/**
 * The one way to reach a model: ModelClient and its views. Every chat call passes the same pipeline,
 * composed in chat() below, top to bottom:
 *
 *   request.ts      what it asks, resolved once (configuration, parameters, cache key)
 *   hits.ts         the persistent cache; prefetch groups and deferred hits
 *   batch-calls.ts  a collecting view hands the call to its batch instead of sending it
 *   hits.ts         an identical call in flight answers it
 *   claims.ts       so does one another process is sending (a claim per cache key; its reply, once cached)
 *   spend-guard.ts  a guarded run goes one call at a time until its first accepted reply
 *   ask.ts          the rounds: step-down.ts (JSON mode, budget name, streaming), slot.ts (concurrency
 *                   slot, rate limit), tries.ts + retry.ts (retries with backoff, a row per failed try),
 *                   transport.ts + stream.ts (the openai SDK, streamed where the endpoint streams),
 *                   reply.ts (usage, reasoning, finish_reason), ledger-write.ts (row + cache entry)
 *
 * A step that cannot succeed throws ModelCallError, already recorded with the raw reply. Embeddings:
 * embed.ts. Batch replies: batch-calls.ts.
 */
import type OpenAI from "openai";
import type { Db } from "@/db/client";
import { askModel } from "./ask";
import { acceptBatchLine, collectCall } from "./batch-calls";
import {
  plainView,
  type ChatOptions,
  type ChatResult,
  type ClientStats,
  type CollectedCall,
  type InFlight,
  type ModelClientOptions,
  type RoleParams,
  type Usage,
  type View,
} from "./client-types";
import type { ModelConfig } from "./config";
import { configOf, createCore, type Core } from "./core";
import { embedTexts, type EmbedOptions } from "./embed";
import { releaseClaim, tryClaim } from "./claims";
import { cacheLookup, shareOtherProcess, deferredCount, joinInFlight, takeDeferred } from "./hits";
import type { LedgerRow, Origin } from "./ledger";
import { prepareCall } from "./request";
import type { SpendGuard } from "./spend-guard";
import { sdkOf } from "./transport";

export type { ChatMessage, Lang } from "./types";
export {
  DeferredCallError,
  type ChatOptions,
  type ChatResult,
  type ClientStats,
  type CollectedCall,
  type InFlight,
  type ModelClientOptions,
  type RoleParams,
  type Usage,
} from "./client-types";

export class ModelClient {
  /** Logical calls made through this view (not its siblings): what one answer or step cost. */
  private readonly local = { calls: 0 };

  private constructor(
    private readonly core: Core,
    private readonly view: View,
  ) {}

  static create(db: Db, options: ModelClientOptions = {}): ModelClient {
    return new ModelClient(createCore(db, options), plainView(options.origin));
  }

  async chat<T = string>(o: ChatOptions<T>): Promise<ChatResult<T>> {
    const { core, view } = this;
    const call = prepareCall(core, view, o);
    this.local.calls++;
    const cached = cacheLookup(core, view, call);
    if (cached) return cached;
    if (view.collect) collectCall(core, view.collect, call);
    // Checked without awaiting: a call that finds none registers its own below before anything is awaited.
    const pending = core.inflight.get(call.cacheKey);
    if (pending) {
      const shared = await joinInFlight(core, view, call, pending);
      if (shared) return shared;
    }
    // Registered as in flight before anything is awaited, so an identical call arriving meanwhile shares this one.
    let leaveGuard = (): void => {};
    const run = (async (): Promise<ChatResult<T>> => {
      // Another process sending the identical request answers it once its reply is cached (claims.ts).
      // Claimed without awaiting, so the call joins its queue in the order it was made.
      if (!tryClaim(core.db, call.cacheKey)) {
        const shared = await shareOtherProcess(core, view, call);
        if (shared) return shared;
      }
      // A guarded run goes one call at a time until its first accepted reply (spend-guard.ts).
      if (view.guard) leaveGuard = await view.guard.enter();
      const { value, text, usage } = await askModel(core, view, call);
      return { value, text, cacheHit: false, cacheKey: call.cacheKey, usage };
    })();
    core.inflight.set(call.cacheKey, run);
    try {
      return await run;
    } finally {
      core.inflight.delete(call.cacheKey);
      // Still held when no reply was committed (failed, paused, cancelled): waiters elsewhere send it themselves.
      releaseClaim(core.db, call.cacheKey);
      leaveGuard();
    }
  }

  /**
   * Embeds texts with the embedding role (or a named config), one vector per text in order.
   * Vectors are cached per (endpoint, model, text); only the missing ones are requested, in batches.
   */
  embed(texts: string[], o: EmbedOptions): Promise<number[][]> {
    this.local.calls++;
    return embedTexts(this.core, this.view, texts, o);
  }

  // The views: the same client (cache, limits, counters), calls carrying something else.

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

  // What a view says about itself and the client.

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

  /** The configuration `name` resolves to (read again at most every second). */
  config(name: string): ModelConfig {
    return configOf(this.core, name);
  }

  // Batches, deferred hits and queued groups.

  /**
   * A reply that came back in a batch, accepted as an online reply would be (batch-calls.ts); whether
   * it was. `finishReason` "length" is a reply cut off at max_tokens, never accepted.
   */
  acceptBatchReply(
    call: CollectedCall,
    raw: string,
    usage: Usage,
    status: "ok" | "error",
    error?: string,
    finishReason?: string | null,
  ): boolean {
    return acceptBatchLine(this.core, this.view, call, { raw, usage, status, error, finishReason });
  }

  /** The SDK client of a configuration (one per endpoint and key), for the Batch API. */
  sdkFor(cfg: ModelConfig): OpenAI {
    return sdkOf(this.core, cfg);
  }

  /** The cache-hit rows of one origin deferred so far, handed over once. */
  takeDeferredHits(origin: Origin): LedgerRow[] {
    return takeDeferred(this.core, origin);
  }

  /** Deferred cache-hit rows of one origin not yet handed over (what a job's usage must count). */
  deferredHitsOf(origin: Origin): number {
    return deferredCount(this.core, origin);
  }

  /** Calls of `group` still waiting for a slot are dropped when they get one (a build that stopped: its prefetches are not needed). */
  cancelGroup(group: string): void {
    this.core.queues.cancelGroup(group);
  }

  /** Moves every call of `group` still waiting for a slot up to `priority` (a prefetch now needed). */
  raiseGroup(group: string, priority: number): void {
    this.core.queues.raiseGroup(group, priority);
  }
}
