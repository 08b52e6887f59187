import { sqliteTable, integer, text, index, real } from "drizzle-orm/sqlite-core";
import { createdAt } from "./common";

export const MODEL_ROLES = ["assistant", "user-simulator", "judge", "embedding"] as const;

/** Model endpoints per role (admins set them; env vars are the defaults). Keys stay server-side. */
export const modelSettings = sqliteTable("model_settings", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  /** A role, or a named judge configuration ("judge:gscore"). */
  name: text("name").notNull().unique(),
  role: text("role", { enum: MODEL_ROLES }).notNull(),
  baseUrl: text("base_url"),
  apiKey: text("api_key"),
  model: text("model").notNull(),
  params: text("params", { mode: "json" }).$type<Record<string, unknown>>(),
  createdAt: createdAt(),
});

/** Persistent response cache: same request (incl. replicate index), same answer, no second charge. */
export const llmCache = sqliteTable("llm_cache", {
  key: text("key").primaryKey(), // sha256 of (endpoint, model, messages, params, replicate)
  model: text("model").notNull(),
  request: text("request", { mode: "json" }).notNull(),
  response: text("response", { mode: "json" }).notNull(),
  promptTokens: integer("prompt_tokens").notNull().default(0),
  completionTokens: integer("completion_tokens").notNull().default(0),
  createdAt: createdAt(),
});

/** The call ledger: one row per call attempt, cache hits included, for tokens, cost and replay. */
export const llmCalls = sqliteTable(
  "llm_calls",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    runId: integer("run_id"),
    /** What caused the call, e.g. "memory:12" or "job:345". */
    origin: text("origin"),
    role: text("role").notNull(),
    model: text("model").notNull(),
    cacheKey: text("cache_key"),
    cacheHit: integer("cache_hit", { mode: "boolean" }).notNull().default(false),
    attempt: integer("attempt").notNull().default(1),
    status: text("status", { enum: ["ok", "retry", "invalid", "failed"] }).notNull(),
    error: text("error"),
    promptTokens: integer("prompt_tokens").notNull().default(0),
    completionTokens: integer("completion_tokens").notNull().default(0),
    costUsd: real("cost_usd"),
    latencyMs: integer("latency_ms"),
    createdAt: createdAt(),
  },
  (t) => [index("llm_calls_run").on(t.runId), index("llm_calls_origin").on(t.origin)],
);
