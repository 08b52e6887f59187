/**
 * The model client's persistent cache in SQLite: accepted chat replies by request hash (llm_cache)
 * and embedding vectors by (endpoint, model, text) hash (embedding_cache). Only accepted replies are
 * stored, so a cache hit is always an answer the caller could use (a later, stricter schema may still
 * reject it: the client then asks again and replaces it).
 */
import { inArray } from "drizzle-orm";
import type { Db } from "@/db/client";
import { stmt } from "@/db/statements";
import { embeddingCache } from "@/db/schema";

export type CachedUsage = { promptTokens: number; completionTokens: number; cachedTokens: number; reasoningTokens: number };

/** The accepted reply stored under `key`, if any. */
export function cachedReply(db: Db, key: string): string | null {
  const row = stmt(db, "SELECT response FROM llm_cache WHERE key = ?").get(key) as { response: string } | undefined;
  return row ? row.response : null;
}

/** Stores (or replaces) the accepted reply of a request. Call inside the transaction that writes its ledger row. */
export function storeReply(
  db: Db,
  e: { key: string; endpoint: string; model: string; request: unknown; response: string; usage: CachedUsage },
): void {
  stmt(
    db,
    `INSERT INTO llm_cache (key, endpoint, model, request, response, prompt_tokens, completion_tokens, cached_tokens, reasoning_tokens)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (key) DO UPDATE SET response = excluded.response, prompt_tokens = excluded.prompt_tokens,
       completion_tokens = excluded.completion_tokens, cached_tokens = excluded.cached_tokens, reasoning_tokens = excluded.reasoning_tokens`,
  ).run(
    e.key,
    e.endpoint,
    e.model,
    JSON.stringify(e.request),
    e.response,
    e.usage.promptTokens,
    e.usage.completionTokens,
    e.usage.cachedTokens,
    e.usage.reasoningTokens,
  );
}

/** The cached vectors among `keys` (float32 as stored), by key. */
export function cachedVectors(db: Db, keys: string[]): Map<string, number[]> {
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
  return found;
}

/** Stores vectors (first writer wins) and returns them rounded to float32, as a later read gives them. */
export function storeVectors(db: Db, model: string, entries: Array<{ key: string; vector: number[] }>): number[][] {
  const insert = db.$client.prepare("insert or ignore into embedding_cache (key, model, dimensions, vector) values (?, ?, ?, ?)");
  db.$client.transaction(() => {
    for (const { key, vector } of entries) insert.run(key, model, vector.length, Buffer.from(new Float32Array(vector).buffer));
  })();
  return entries.map(({ vector }) => vector.map((x) => Math.fround(x)));
}
