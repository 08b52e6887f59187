/**
 * What every view of one model client shares: the database, the options, the queues, the memos of
 * what each endpoint accepts, the requests in flight and the counters. The pipeline's units read and
 * write it; nothing outside lib/llm sees it.
 */
import type OpenAI from "openai";
import type { Db } from "@/db/client";
import type { JsonMode } from "@/db/schema";
import { envNumber, envValue, type EnvName } from "@/lib/config";
import type { ClientStats, ModelClientOptions, Usage } from "./client-types";
import { resolveModelConfig, type ModelConfig } from "./config";
import { GroupCommit, type LedgerRow } from "./ledger";
import { RoleQueues } from "./queue";

export type CoreOptions = Required<Omit<ModelClientOptions, "origin" | "concurrency">>;

export type Core = {
  db: Db;
  opts: CoreOptions;
  queues: RoleQueues;
  /** Replies paid for by prefetches and not yet asked for by the build (see prefetching()). */
  prefetchPaid: Set<string>;
  /** Cache-hit ledger rows of deferring views, until their owner writes them (takeDeferredHits). */
  deferred: LedgerRow[];
  sdks: Map<string, OpenAI>;
  /** Resolved configurations by name, until when they are used without reading them again (configOf). */
  configs: Map<string, { cfg: ModelConfig; until: number }>;
  /** Endpoints (base URL and model) that answered JSON mode with a 400, and what they said. */
  jsonModeRefused: Map<string, string>;
  /** Where such a refusal left a configuration without a defined endpoint (one step weaker each time). */
  jsonModeNow: Map<string, JsonMode>;
  /** Endpoints (base URL and model) that want max_completion_tokens instead of max_tokens. */
  completionTokensParam: Set<string>;
  /** Endpoints (base URL and model) seen thinking: their budgets get reasoning headroom. */
  reasoning: Set<string>;
  /** Endpoints (base URL and model) that refused streaming, or stream_options (stream.ts). */
  noStream: Set<string>;
  noStreamUsage: Set<string>;
  /** Requests sent and not yet answered, by a sequence number: when each was sent. */
  sent: Map<number, number>;
  nextSent: number;
  inflight: Map<string, Promise<{ text: string; usage: Usage }>>;
  /** Writes the accepted replies of one event-loop turn in one transaction. */
  commits: GroupCommit;
  stats: ClientStats;
};

const CONFIG_TTL_MS = 1000;

const envFlag = (name: EnvName, fallback: boolean) => {
  const v = envValue(name);
  return v === undefined || v === "" ? fallback : !/^(0|false|off|no)$/i.test(v);
};

export function createCore(db: Db, options: ModelClientOptions): Core {
  const concurrency = options.concurrency ?? {};
  const timeoutMs = options.timeoutMs ?? envNumber("PAL_LLM_TIMEOUT_MS", 120_000);
  return {
    db,
    opts: {
      timeoutMs,
      streamIdleMs: options.streamIdleMs ?? envNumber("PAL_LLM_STREAM_IDLE_MS", timeoutMs),
      streamMsPerToken: options.streamMsPerToken ?? 500,
      stream: options.stream ?? envFlag("PAL_LLM_STREAM", true),
      streamMinTokens: options.streamMinTokens ?? envNumber("PAL_LLM_STREAM_MIN_TOKENS", 4096),
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
    noStream: new Set(),
    noStreamUsage: new Set(),
    sent: new Map(),
    nextSent: 0,
    inflight: new Map(),
    commits: new GroupCommit(db),
    stats: { requests: 0, cacheHits: 0, failed: 0, promptTokens: 0, completionTokens: 0, timeouts: 0, cutOff: 0 },
  };
}

/**
 * The configuration `name` resolves to, read again at most every CONFIG_TTL_MS: resolving reads the
 * settings and the endpoint and decrypts its key, which at many calls a second was a fifth of a
 * call's CPU. A long-running worker still follows an admin's change within a second.
 */
export function configOf(core: Core, name: string): ModelConfig {
  const now = Date.now();
  const memo = core.configs.get(name);
  if (memo && memo.until > now) return memo.cfg;
  const cfg = resolveModelConfig(core.db, name);
  core.configs.set(name, { cfg, until: now + CONFIG_TTL_MS });
  return cfg;
}
