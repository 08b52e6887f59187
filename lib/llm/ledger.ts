import { and, asc, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { stmt, transact } from "@/db/statements";
import { LLM_CALL_STATUSES, llmCalls, type ModelRole, type LlmCallStatus } from "@/db/schema";
import { writeStarted } from "./inflight";

/**
 * What caused a call: at most one of the first three is set; a call with none is an ad-hoc check.
 * `experimentId` is beside them: the experiment a call was made for when its origin is not one of its
 * jobs (a memory build the experiment ran), so the experiment's spend cap and cost count it.
 */
export type Origin = { memoryVersionId?: number; jobId?: number; judgeRunId?: number; experimentId?: number };

export type LedgerRow = {
  origin: Origin;
  purpose: string;
  role: ModelRole;
  config: string;
  endpoint: string;
  model: string;
  cacheKey: string | null;
  cacheHit: boolean;
  replicate: number;
  attempt: number;
  status: LlmCallStatus;
  error?: string | null;
  rawReply?: string | null;
  promptTokens?: number;
  completionTokens?: number;
  cachedTokens?: number;
  reasoningTokens?: number;
  latencyMs?: number | null;
  /** The request reached the endpoint and no usage came back (timeout, dropped connection): its tokens are unknown, not 0. */
  usageUnknown?: boolean;
  /** Why the reported usage was not believed (usage-check.ts): written after the row's error. */
  usageNote?: string;
  /** The most the call can have cost in tokens, when its usage is unknown: what the spend guard counts. Not stored. */
  worstCase?: { promptTokens: number; completionTokens: number };
  /** What the request carried (null or absent: not sent): the protocol audit compares these with the run's protocol. */
  sent?: SentParams;
  /** The model the endpoint says answered (the reply's `model`). */
  servedModel?: string | null;
};

/** The request parameters a ledger row records (llm_calls.temperature, top_p, max_tokens, json_mode, other_params). */
export type SentParams = { temperature?: number | null; topP?: number | null; maxTokens?: number | null; jsonMode?: string | null } & {
  /** Every other parameter sent, as canonical JSON (keys sorted); null: none. */
  other?: string | null;
};

const num = (v: unknown): number | null => (typeof v === "number" && Number.isFinite(v) ? v : null);

/** Parameters with a column of their own, or not sampling parameters (the model has its column). */
const OWN_COLUMN = new Set(["temperature", "top_p", "max_tokens", "max_completion_tokens", "model", "messages", "response_format"]);

/** The rest of a request's parameters, keys sorted, as one JSON text (null: none), so equal sets group together. */
export function otherParams(params: Record<string, unknown>): string | null {
  const keys = Object.keys(params).filter((k) => !OWN_COLUMN.has(k) && params[k] !== undefined);
  keys.sort();
  return keys.length ? JSON.stringify(Object.fromEntries(keys.map((k) => [k, params[k]]))) : null;
}

/** The parameters a request body carries, as the ledger records them (`jsonMode` as the call decided it). */
export function sentParams(params: Record<string, unknown>, jsonMode: string | null = null): SentParams {
  return {
    temperature: num(params.temperature),
    topP: num(params.top_p),
    maxTokens: num(params.max_tokens) ?? num(params.max_completion_tokens),
    jsonMode,
    other: otherParams(params),
  };
}

const INSERT_CALL = `INSERT INTO llm_calls (memory_version_id, job_id, judge_run_id, experiment_id, purpose, role, config, endpoint, model,
  cache_key, cache_hit, replicate, attempt, status, error, raw_reply, prompt_tokens, completion_tokens, cached_tokens, reasoning_tokens,
  latency_ms, usage_unknown, temperature, top_p, max_tokens, json_mode, other_params, served_model)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`;

/** One ledger row, written at once (a crash loses no recorded attempt). */
export function recordCall(db: Db, r: LedgerRow): void {
  stmt(db, INSERT_CALL).run(
    r.origin.memoryVersionId ?? null,
    r.origin.jobId ?? null,
    r.origin.judgeRunId ?? null,
    r.origin.experimentId ?? null,
    r.purpose,
    r.role,
    r.config,
    r.endpoint,
    r.model,
    r.cacheKey,
    r.cacheHit ? 1 : 0,
    r.replicate,
    r.attempt,
    r.status,
    r.usageNote ? (r.error ? `${r.error}; ${r.usageNote}` : r.usageNote) : (r.error ?? null),
    r.rawReply ?? null,
    r.promptTokens ?? 0,
    r.completionTokens ?? 0,
    r.cachedTokens ?? 0,
    r.reasoningTokens ?? 0,
    r.latencyMs ?? null,
    r.usageUnknown ? 1 : 0,
    r.sent?.temperature ?? null,
    r.sent?.topP ?? null,
    r.sent?.maxTokens ?? null,
    r.sent?.jsonMode ?? null,
    r.sent?.other ?? null,
    r.servedModel ?? null,
  );
}

/** Many ledger rows in one transaction (joins the caller's, when there is one). */
export function recordCalls(db: Db, rows: readonly LedgerRow[]): void {
  if (rows.length === 0) return;
  transact(db, () => {
    for (const r of rows) recordCall(db, r);
  });
}

function originFilter(origin: Origin) {
  if (origin.memoryVersionId !== undefined) return eq(llmCalls.memoryVersionId, origin.memoryVersionId);
  if (origin.jobId !== undefined) return eq(llmCalls.jobId, origin.jobId);
  if (origin.judgeRunId !== undefined) return eq(llmCalls.judgeRunId, origin.judgeRunId);
  if (origin.experimentId !== undefined) return eq(llmCalls.experimentId, origin.experimentId);
  throw new Error("an origin needs a memoryVersionId, a jobId or a judgeRunId");
}

export type LedgerCall = typeof llmCalls.$inferSelect;

/** The calls one origin caused, oldest first (paged). */
export function listCalls(db: Db, origin: Origin, opts: { limit?: number; offset?: number; status?: LlmCallStatus } = {}): LedgerCall[] {
  const where = opts.status ? and(originFilter(origin), eq(llmCalls.status, opts.status)) : originFilter(origin);
  return db
    .select()
    .from(llmCalls)
    .where(where)
    .orderBy(asc(llmCalls.id))
    .limit(opts.limit ?? 200)
    .offset(opts.offset ?? 0)
    .all();
}

export type LedgerSummary = {
  rows: number;
  /** Attempts that reached the endpoint (everything but cache hits). */
  requests: number;
  cacheHits: number;
  byStatus: Record<LlmCallStatus, number>;
  promptTokens: number;
  completionTokens: number;
  cachedTokens: number;
  reasoningTokens: number;
  /** Requests that reached the endpoint with no usage reported (timeouts, dropped connections): their tokens are not in the sums. */
  usageUnknown: number;
};

function originColumn(origin: Origin): [string, number] {
  if (origin.memoryVersionId !== undefined) return ["memory_version_id", origin.memoryVersionId];
  if (origin.jobId !== undefined) return ["job_id", origin.jobId];
  if (origin.judgeRunId !== undefined) return ["judge_run_id", origin.judgeRunId];
  if (origin.experimentId !== undefined) return ["experiment_id", origin.experimentId];
  throw new Error("an origin needs a memoryVersionId, a jobId or a judgeRunId");
}

/** Read after every experiment job (its usage): a compiled statement per origin column. */
export function summarizeCalls(db: Db, origin: Origin): LedgerSummary {
  const [column, id] = originColumn(origin);
  const rows = stmt(
    db,
    `SELECT status, cache_hit AS cacheHit, count(*) AS n, coalesce(sum(prompt_tokens), 0) AS p, coalesce(sum(completion_tokens), 0) AS c,
     coalesce(sum(cached_tokens), 0) AS ca, coalesce(sum(reasoning_tokens), 0) AS r, coalesce(sum(usage_unknown), 0) AS u
     FROM llm_calls WHERE ${column} = ? GROUP BY status, cache_hit`,
  ).all(id) as Array<{ status: LlmCallStatus; cacheHit: number; n: number; p: number; c: number; ca: number; r: number; u: number }>;
  const s: LedgerSummary = {
    rows: 0,
    requests: 0,
    cacheHits: 0,
    byStatus: { ok: 0, retry: 0, invalid: 0, failed: 0 },
    promptTokens: 0,
    completionTokens: 0,
    cachedTokens: 0,
    reasoningTokens: 0,
    usageUnknown: 0,
  };
  for (const r of rows) {
    s.rows += r.n;
    if (r.cacheHit) s.cacheHits += r.n;
    else s.requests += r.n;
    s.byStatus[r.status] += r.n;
    s.promptTokens += r.p;
    s.completionTokens += r.c;
    s.cachedTokens += r.ca;
    s.reasoningTokens += r.r;
    s.usageUnknown += r.u;
  }
  return s;
}

/** One page of an origin's calls as the ledger table shows it: which rows, and where it stands. */
export type LedgerPage = { page: number; pages: number; total: number; offset: number; limit: number; status: LlmCallStatus | null };

/**
 * The page `page` (1-based, clamped) of `pageSize` calls, of one status or all, from the origin's
 * summary (no second count). An unknown status shows all.
 */
export function ledgerPage(summary: LedgerSummary, want: { page?: string | number; status?: string | null }, pageSize = 100): LedgerPage {
  const status = LLM_CALL_STATUSES.find((x) => x === want.status) ?? null;
  const total = status ? summary.byStatus[status] : summary.rows;
  const pages = Math.max(1, Math.ceil(total / pageSize));
  const asked = Math.floor(Number(want.page ?? 1));
  const page = Number.isFinite(asked) ? Math.min(Math.max(1, asked), pages) : 1;
  return { page, pages, total, offset: (page - 1) * pageSize, limit: pageSize, status };
}

/** The ledger note the client writes when an endpoint refuses JSON mode (client.ts): read back by jsonModeRefusals. */
export const JSON_MODE_REFUSED = "the endpoint refused JSON mode";

/**
 * Endpoints (base URL and model) that answered JSON mode with a 400, newest note each, from the
 * ledger: the Models page shows them beside the configuration that asks for JSON mode.
 */
export function jsonModeRefusals(db: Db): Array<{ endpoint: string; model: string; error: string }> {
  return stmt(
    db,
    `SELECT endpoint, model, error FROM llm_calls WHERE id IN (
       SELECT max(id) FROM llm_calls WHERE error LIKE '${JSON_MODE_REFUSED}%' GROUP BY endpoint, model)
     ORDER BY endpoint, model`,
  ).all() as Array<{ endpoint: string; model: string; error: string }>;
}

/**
 * Group commit of accepted replies: the ledger row and cache entry of every reply that arrives in the
 * same event-loop turn are written in ONE transaction (at setImmediate, after the turn's I/O), and each
 * call resolves only once that transaction has committed. So the guarantee is unchanged: a reply that
 * was paid for is in the ledger and the cache before its call resolves (what a caller, a job's result,
 * or a user's screen can have seen). A crash before the commit loses only replies not yet handed to
 * anyone, as a crash while the reply was still being parsed always could; the redone work asks again.
 * The database runs WAL with synchronous=NORMAL (db/client.ts): a committed transaction survives the
 * process being killed (test/reliability/sigkill.test.ts), not a power cut, as for every other write.
 *
 * Why: with 64 calls in flight, one commit per reply (each rewriting the same ledger and cache pages
 * into the WAL) was the largest cost of the client itself (bench/endpoint-throughput.bench.ts).
 *
 * A write that fails (disk full, read-only database) fails its own call only: the group is retried one
 * write at a time, so the others still commit, each in its own transaction.
 */
export class GroupCommit {
  private pending: Array<{ write: () => void; resolve: () => void; reject: (e: unknown) => void }> = [];
  private scheduled = false;
  private readonly tx: (writes: Array<{ write: () => void }>) => void;

  constructor(db: Db) {
    this.tx = db.$client.transaction((writes: Array<{ write: () => void }>) => {
      for (const w of writes) w.write();
    });
  }

  /**
   * Runs `write` inside the turn's transaction; resolves when it has committed. `write` only writes
   * to the database (it may run twice when its group failed), so in-memory effects go outside it.
   */
  write(write: () => void): Promise<void> {
    // Counted until committed, so a process that drains its requests (inflight.ts) waits for the row too.
    const done = writeStarted();
    return new Promise<void>((resolve, reject) => {
      this.pending.push({
        write,
        resolve: () => (done(), resolve()),
        reject: (e) => (done(), reject(e)),
      });
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => this.flush());
      }
    });
  }

  private flush(): void {
    this.scheduled = false;
    const group = this.pending;
    this.pending = [];
    try {
      this.tx(group);
    } catch {
      for (const w of group) {
        try {
          this.tx([w]);
        } catch (e) {
          w.reject(e);
          continue;
        }
        w.resolve();
      }
      return;
    }
    for (const w of group) w.resolve();
  }
}
