/**
 * The model client's persistent cache in SQLite: accepted chat replies by request hash (llm_cache)
 * and embedding vectors by (endpoint, model, text) hash (embedding_cache). Only accepted replies are
 * stored, so a cache hit is always an answer the caller could use (a later, stricter schema may still
 * reject it: the client then asks again and replaces it).
 */
import type { Db } from "@/db/client";
import { stmt, transact } from "@/db/statements";
import { WeightedLru } from "@/lib/lru";
import { noteVectorKey } from "./vector-uses";

export type CachedUsage = { promptTokens: number; completionTokens: number; cachedTokens: number; reasoningTokens: number };

/** The accepted reply stored under `key`, if any. */
export function cachedReply(db: Db, key: string): string | null {
  const memo = repliesOf(db);
  const known = memo.get(key);
  if (known !== undefined) return known;
  const row = stmt(db, "SELECT response FROM llm_cache WHERE key = ?").get(key) as { response: string } | undefined;
  if (!row) return null;
  memo.set(key, row.response, row.response.length + key.length);
  return row.response;
}

/**
 * Replies read from llm_cache, per database: the methods of a preset share most build requests, so
 * most replies are read again and again (a third of the calls of the Mem-PAL preset are such hits).
 * Only replies read from the table are kept; storeReply drops the key, so a replaced reply is read anew.
 * (Another process replaces a reply only when its schema rejects it; this one, running the same code,
 * rejects it too and asks again.) Bounded in characters.
 */
const REPLY_CHARS = 32_000_000;
const replies = new WeakMap<Db, WeightedLru<string, string>>();
function repliesOf(db: Db): WeightedLru<string, string> {
  let lru = replies.get(db);
  if (!lru) replies.set(db, (lru = new WeightedLru<string, string>(REPLY_CHARS, (text, key) => text.length + key.length)));
  return lru;
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
  // Read from the table next time: the transaction this runs in may still roll back.
  repliesOf(db).delete(e.key);
}

/**
 * Vectors decoded from embedding_cache, per database: a retrieval embeds the same texts (a user's logs)
 * for every answer, so each is read and decoded once, not selected and copied again per answer.
 * Bounded by floats held; kept in step by storeVectors, the table's only writer (rows are never
 * changed or deleted). The arrays are shared: callers only read them.
 */
const VECTOR_FLOATS = 8_000_000;
const decoded = new WeakMap<Db, WeightedLru<string, number[]>>();
function decodedOf(db: Db): WeightedLru<string, number[]> {
  let lru = decoded.get(db);
  if (!lru) decoded.set(db, (lru = new WeightedLru(VECTOR_FLOATS, (v) => v.length)));
  return lru;
}

/**
 * The stored vector of a text, by the text itself, per database, endpoint and model: a retrieval embeds
 * the same texts for every answer, and hashing each text into its key and looking that key up was most
 * of a cached embedding's cost (issue 35). Holds only vectors as stored (read from the table, or
 * inserted by this process): rows are never changed or deleted, so an entry never goes stale.
 */
const TEXT_VECTOR_WEIGHT = 16_000_000;
const byText = new WeakMap<Db, Map<string, WeightedLru<string, number[]>>>();
export function vectorsByText(db: Db, endpoint: string, model: string): WeightedLru<string, number[]> {
  let perModel = byText.get(db);
  if (!perModel) byText.set(db, (perModel = new Map()));
  const of = `${endpoint}\u0000${model}`;
  let lru = perModel.get(of);
  // Weighed in floats, a text counting as a quarter of its characters.
  if (!lru) perModel.set(of, (lru = new WeightedLru<string, number[]>(TEXT_VECTOR_WEIGHT, (v, text) => v.length + (text.length >> 2) + 8)));
  return lru;
}

/** The cached vectors among `keys` (float32 as stored), by key. */
export function cachedVectors(db: Db, keys: string[]): Map<string, number[]> {
  const lru = decodedOf(db);
  const found = new Map<string, number[]>();
  const unread = new Set<string>();
  for (const k of keys) {
    if (found.has(k) || unread.has(k)) continue;
    const v = lru.get(k);
    if (v) found.set(k, v);
    else unread.add(k);
  }
  const missing = [...unread];
  for (let i = 0; i < missing.length; i += 500) {
    const rows = stmt(db, "SELECT key, vector FROM embedding_cache WHERE key IN (SELECT value FROM json_each(?))").all(
      JSON.stringify(missing.slice(i, i + 500)),
    ) as Array<{ key: string; vector: Buffer }>;
    for (const r of rows) {
      const v = Array.from(new Float32Array(r.vector.buffer, r.vector.byteOffset, r.vector.byteLength / 4));
      noteVectorKey(v, r.key);
      lru.set(r.key, v);
      found.set(r.key, v);
    }
  }
  return found;
}

/** Stores vectors (first writer wins) and returns them rounded to float32, as a later read gives them. */
export function storeVectors(db: Db, model: string, entries: Array<{ key: string; vector: number[] }>): number[][] {
  const insert = stmt(db, "insert or ignore into embedding_cache (key, model, dimensions, vector) values (?, ?, ?, ?)");
  const lru = decodedOf(db);
  const rounded = entries.map(({ vector }) => vector.map((x) => Math.fround(x)));
  rounded.forEach((v, i) => noteVectorKey(v, entries[i].key));
  transact(db, () => {
    entries.forEach(({ key, vector }, i) => {
      // Another writer's vector kept (first writer wins): the next read takes it from the table.
      if (insert.run(key, model, vector.length, Buffer.from(new Float32Array(vector).buffer)).changes === 1) lru.set(key, rounded[i]);
      else lru.delete(key);
    });
  });
  return rounded;
}
