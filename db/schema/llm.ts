import { sqliteTable, integer, real, text, index, blob, primaryKey, type AnySQLiteColumn } from "drizzle-orm/sqlite-core";
import { sql } from "drizzle-orm";
import { createdAt } from "./common";
import { experiments, jobs } from "./experiments";
import { memoryVersions } from "./memory";
import { judgeRuns } from "./annotation";

export const MODEL_ROLES = ["assistant", "user-simulator", "judge", "embedding"] as const;
export type ModelRole = (typeof MODEL_ROLES)[number];

/**
 * Admin overrides of the model endpoint per role, or per named judge configuration ("judge:gscore").
 * A null field falls back to the environment (the defaults). The API key is never stored in plain
 * text: `api_key_enc` is AES-256-GCM ciphertext (lib/llm/secrets.ts; the key comes from
 * PAL_SECRET_KEY or a generated file beside the database) and never leaves the server.
 */
/**
 * A model endpoint defined once (Admin → Models) and pointed at by roles and named judges: its base
 * URL, key (encrypted like model_settings.api_key_enc), timeout and JSON mode replace theirs, and its
 * limits (in flight, requests/min, tokens/min) hold for every configuration that uses it, across the
 * server's worker and CLI runs on the same database (lib/llm/rate-limit.ts).
 */
export const JSON_MODES = ["off", "json_object", "json_schema"] as const;
export type JsonMode = (typeof JSON_MODES)[number];

export const endpoints = sqliteTable("endpoints", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  name: text("name").notNull().unique(),
  baseUrl: text("base_url").notNull(),
  apiKeyEnc: text("api_key_enc"),
  /** The models it serves, for the admin's reference (null: not listed). */
  models: text("models", { mode: "json" }).$type<string[]>(),
  /** Requests in flight at once per process (null: PAL_LLM_CONCURRENCY). */
  concurrency: integer("concurrency"),
  /** Requests started per minute across processes (null: no limit). */
  rpm: integer("rpm"),
  /** Tokens (prompt + completion) per minute across processes, approximate (null: no limit). */
  tpm: integer("tpm"),
  /** Per-request timeout (null: PAL_LLM_TIMEOUT_MS). */
  timeoutMs: integer("timeout_ms"),
  /**
   * Asks for JSON when a call expects it: "off", "json_object" (response_format json_object) or
   * "json_schema" (the call's schema sent as response_format json_schema).
   */
  jsonMode: text("json_mode", { enum: JSON_MODES }).notNull().default("off"),
  /**
   * The mode in use after the endpoint refused the chosen one with a 400 (json_schema → json_object → off),
   * remembered so every process asks only once; null: the chosen mode. Cleared when the admin picks another mode.
   */
  jsonModeFallback: text("json_mode_fallback", { enum: JSON_MODES }),
  /** Why it fell back: the endpoint's error and when, for the note on Admin → Models. */
  jsonModeNote: text("json_mode_note"),
  /**
   * The admin marks that the endpoint serves the OpenAI Batch API (/v1/files, /v1/batches: half the
   * price), so the batch options for judge runs can say whether the judge's endpoint is known to take them.
   */
  batchApi: integer("batch_api", { mode: "boolean" }).notNull().default(false),
  createdAt: createdAt(),
  updatedAt: integer("updated_at"),
});

/**
 * Requests started against a limited endpoint, by every process on this database: the rate limiter
 * counts them over a sliding window (requests/min) and adds the tokens of finished ones (tokens/min).
 * Rows older than a minute are deleted as new ones arrive.
 */
export const endpointUsage = sqliteTable(
  "endpoint_usage",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    endpointId: integer("endpoint_id")
      .notNull()
      .references(() => endpoints.id, { onDelete: "cascade" }),
    /** When the request was let through (ms since the epoch). */
    at: integer("at").notNull(),
    /** Prompt + completion tokens, written when the reply arrives. */
    tokens: integer("tokens").notNull().default(0),
    /**
     * While the request is in flight: when its place lapses (start + the endpoint's timeout + a margin), so
     * a killed process does not hold it for ever; null once the reply (or error) came back.
     */
    inFlightUntil: integer("in_flight_until"),
  },
  (t) => [index("endpoint_usage_at").on(t.endpointId, t.at)],
);

export const modelSettings = sqliteTable("model_settings", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  /** "assistant" | "user-simulator" | "judge" | "embedding", or "judge:<name>". */
  name: text("name").notNull().unique(),
  role: text("role", { enum: MODEL_ROLES }).notNull(),
  baseUrl: text("base_url"),
  apiKeyEnc: text("api_key_enc"),
  model: text("model"),
  /** Sampling parameters sent with every request of this configuration (temperature, max_tokens...). */
  params: text("params", { mode: "json" }).$type<Record<string, unknown>>(),
  /** A defined endpoint: its base URL, key, timeout and JSON mode replace the row's (the model name stays). */
  endpointId: integer("endpoint_id").references((): AnySQLiteColumn => endpoints.id, { onDelete: "set null" }),
  createdAt: createdAt(),
  updatedAt: integer("updated_at"),
});

/** Persistent response cache: same request (incl. replicate index), same answer, no second charge. */
export const llmCache = sqliteTable("llm_cache", {
  /** sha256 of (endpoint, model, messages, params, replicate index). */
  key: text("key").primaryKey(),
  endpoint: text("endpoint").notNull(),
  model: text("model").notNull(),
  request: text("request", { mode: "json" }).notNull(),
  /** The reply text that validated (only accepted replies are cached). */
  response: text("response").notNull(),
  promptTokens: integer("prompt_tokens").notNull().default(0),
  completionTokens: integer("completion_tokens").notNull().default(0),
  cachedTokens: integer("cached_tokens").notNull().default(0),
  reasoningTokens: integer("reasoning_tokens").notNull().default(0),
  createdAt: createdAt(),
});

/**
 * The cached replies an imported bundle carried, kept per imported experiment and apart from llm_cache:
 * their keys were computed by whoever wrote the file, so they never answer this lab's own requests
 * (issue 40: a bundle's planted replies were read by a victim's later run). Read only to export that
 * experiment again (lib/bundles/export.ts); a replay (`pal bundle verify`) imports into a database of its own.
 */
export const bundleReplies = sqliteTable(
  "bundle_replies",
  {
    experimentId: integer("experiment_id")
      .notNull()
      .references(() => experiments.id, { onDelete: "cascade" }),
    key: text("key").notNull(),
    endpoint: text("endpoint").notNull(),
    model: text("model").notNull(),
    request: text("request").notNull(),
    response: text("response").notNull(),
    promptTokens: integer("prompt_tokens").notNull().default(0),
    completionTokens: integer("completion_tokens").notNull().default(0),
    cachedTokens: integer("cached_tokens").notNull().default(0),
    reasoningTokens: integer("reasoning_tokens").notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.experimentId, t.key] })],
);

/**
 * The embedding vectors an imported bundle carried, per imported experiment and apart from
 * embedding_cache, for the same reason as bundle_replies: a planted vector must not steer this lab's
 * retrievals. Read only to export that experiment again.
 */
export const bundleVectors = sqliteTable(
  "bundle_vectors",
  {
    experimentId: integer("experiment_id")
      .notNull()
      .references(() => experiments.id, { onDelete: "cascade" }),
    key: text("key").notNull(),
    model: text("model").notNull(),
    dimensions: integer("dimensions").notNull(),
    vector: blob("vector", { mode: "buffer" }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.experimentId, t.key] })],
);

/**
 * Which embedding vectors a run used (lib/llm/vector-uses.ts): scope "experiment:<id>" for its jobs'
 * lookups, "memory:<id>" for a memory version's build. A bundle exports only these rows of
 * embedding_cache, not every vector of the model, other runs' included (issue 40).
 */
export const embeddingUses = sqliteTable(
  "embedding_uses",
  {
    scope: text("scope").notNull(),
    key: text("key").notNull(),
  },
  (t) => [primaryKey({ columns: [t.scope, t.key] })],
);

/**
 * A request being sent by one process, by cache key: another process (a `--workers` run's, the server's
 * worker beside a CLI run) about to send the same request waits for its reply to reach llm_cache instead
 * of paying for it again (lib/llm/claims.ts). Deleted in the commit that stores the reply, or when the
 * request fails; a claim whose owner died, or whose lease ran out, is taken over.
 */
export const llmClaims = sqliteTable("llm_claims", {
  key: text("key").primaryKey(),
  /** The owning process: "host:pid:nonce:start" (lib/lease-holder.ts). */
  owner: text("owner").notNull(),
  /** Renewed by the owner while it waits for the reply (ms since the epoch). */
  leaseUntil: integer("lease_until").notNull(),
});

/** Embedding vectors per (endpoint, model, text), float32 little-endian. */
export const embeddingCache = sqliteTable("embedding_cache", {
  /** sha256 of (endpoint, model, text). */
  key: text("key").primaryKey(),
  model: text("model").notNull(),
  dimensions: integer("dimensions").notNull(),
  vector: blob("vector", { mode: "buffer" }).notNull(),
  createdAt: createdAt(),
});

export const LLM_CALL_STATUSES = ["ok", "retry", "invalid", "failed"] as const;
export type LlmCallStatus = (typeof LLM_CALL_STATUSES)[number];

/**
 * The call ledger: one row per attempt (cache hits included, with zero tokens charged). What caused
 * a call is a real foreign key (a memory version, a job; further origins get their own nullable
 * column), plus a free `purpose` naming the step, e.g. "h2memory.log-graph".
 */
export const llmCalls = sqliteTable(
  "llm_calls",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    memoryVersionId: integer("memory_version_id").references(() => memoryVersions.id, { onDelete: "cascade" }),
    jobId: integer("job_id").references(() => jobs.id, { onDelete: "cascade" }),
    /** An LLM judge run over a campaign's items. */
    judgeRunId: integer("judge_run_id").references(() => judgeRuns.id, { onDelete: "cascade" }),
    /**
     * The experiment a call was made for when its origin is not one of the experiment's jobs: a memory
     * build it ran (beside memory_version_id), so its spend cap and cost count it (a job's calls reach
     * their experiment through job_id). No foreign key: SQLite cannot add one with its ON DELETE to an
     * existing table, and a paid call stays in the ledger whatever becomes of the experiment.
     */
    experimentId: integer("experiment_id"),
    purpose: text("purpose").notNull(),
    role: text("role", { enum: MODEL_ROLES }).notNull(),
    /** The configuration used: a role name or "judge:<name>". */
    config: text("config").notNull(),
    endpoint: text("endpoint").notNull(),
    model: text("model").notNull(),
    cacheKey: text("cache_key"),
    cacheHit: integer("cache_hit", { mode: "boolean" }).notNull().default(false),
    replicate: integer("replicate").notNull().default(0),
    /** 1-based attempt within one logical call (transport retries and regenerations). */
    attempt: integer("attempt").notNull().default(1),
    /** ok: accepted; retry: transport failure retried; invalid: reply rejected, regenerated; failed: gave up. */
    status: text("status", { enum: LLM_CALL_STATUSES }).notNull(),
    error: text("error"),
    /** The raw reply of an invalid or failed attempt, for inspection. */
    rawReply: text("raw_reply"),
    promptTokens: integer("prompt_tokens").notNull().default(0),
    completionTokens: integer("completion_tokens").notNull().default(0),
    cachedTokens: integer("cached_tokens").notNull().default(0),
    reasoningTokens: integer("reasoning_tokens").notNull().default(0),
    latencyMs: integer("latency_ms"),
    /**
     * The request reached the endpoint but no usage came back (a timeout, a connection dropped after
     * sending, an unreadable body): its tokens are unknown, not zero.
     */
    usageUnknown: integer("usage_unknown", { mode: "boolean" }).notNull().default(false),
    /**
     * What the request carried (the protocol audit reads these; null: not sent, the endpoint's default):
     * temperature, top_p, the output budget (max_tokens or max_completion_tokens) and the JSON mode
     * ("off", "json_object", "json_schema"; null on cache hits and embeddings).
     */
    temperature: real("temperature"),
    topP: real("top_p"),
    maxTokens: integer("max_tokens"),
    jsonMode: text("json_mode"),
    /**
     * Every other parameter the request carried (top_p aside: presence_penalty, seed, stop, ...), as canonical
     * JSON of the role's settings and the call's; null: none. The run record and the protocol audit read it.
     */
    otherParams: text("other_params"),
    /** The model the endpoint says answered (the reply's `model`), when it said one. */
    servedModel: text("served_model"),
    createdAt: createdAt(),
  },
  (t) => [
    // Partial: a row has at most one or two of these origins, and indexing the others' NULLs cost every
    // ledger write (the pipeline's most frequent one) index entries nobody looks up (issue 35).
    index("llm_calls_memory")
      .on(t.memoryVersionId)
      .where(sql`${t.memoryVersionId} is not null`),
    index("llm_calls_experiment")
      .on(t.experimentId)
      .where(sql`${t.experimentId} is not null`),
    index("llm_calls_job")
      .on(t.jobId)
      .where(sql`${t.jobId} is not null`),
    index("llm_calls_judge_run")
      .on(t.judgeRunId)
      .where(sql`${t.judgeRunId} is not null`),
  ],
);

export const LLM_BATCH_STATUSES = [
  "validating",
  "in_progress",
  "finalizing",
  "completed",
  "failed",
  "expired",
  "cancelling",
  "cancelled",
  "ingested",
] as const;
export type LlmBatchStatus = (typeof LLM_BATCH_STATUSES)[number];

/** One line of a batch as its ledger row needs it (llm_batches.lines). */
export type BatchLine = {
  key: string;
  origin: { memoryVersionId?: number; jobId?: number; judgeRunId?: number; experimentId?: number };
  purpose: string;
  role: ModelRole;
  replicate: number;
};

/**
 * A batch of chat calls sent through an endpoint's Batch API (/v1/files + /v1/batches: half the price,
 * answered within 24 h). Its replies enter the cache and the ledger as online calls do when it is
 * ingested; the calls are then made through the client as usual and answered from the cache. The row
 * outlives the process, so a restart resumes polling.
 */
export const llmBatches = sqliteTable(
  "llm_batches",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    /** An LLM judge run over a campaign's items (the origin of the calls). */
    judgeRunId: integer("judge_run_id").references(() => judgeRuns.id, { onDelete: "cascade" }),
    /** Or an experiment whose judge calls are batched (config judgeBatch; lib/experiments/judge-batch.ts). */
    experimentId: integer("experiment_id").references(() => experiments.id, { onDelete: "cascade" }),
    config: text("config").notNull(),
    endpoint: text("endpoint").notNull(),
    model: text("model").notNull(),
    remoteId: text("remote_id"),
    inputFileId: text("input_file_id"),
    outputFileId: text("output_file_id"),
    status: text("status", { enum: LLM_BATCH_STATUSES }).notNull().default("validating"),
    requests: integer("requests").notNull().default(0),
    completed: integer("completed").notNull().default(0),
    failed: integer("failed").notNull().default(0),
    error: text("error"),
    /**
     * What the ledger needs of each line (its custom_id, origin, purpose, role, replicate), written at
     * submission: a reply read after its run stopped (a cancelled experiment) is still recorded against
     * the call's origin.
     */
    lines: text("lines", { mode: "json" }).$type<BatchLine[]>(),
    createdAt: createdAt(),
    updatedAt: integer("updated_at"),
  },
  (t) => [index("llm_batches_judge_run").on(t.judgeRunId), index("llm_batches_experiment").on(t.experimentId)],
);
