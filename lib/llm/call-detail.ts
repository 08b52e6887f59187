import { asc, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { llmCache, llmCalls } from "@/db/schema";
import { InvalidInputError, NotFoundError } from "@/lib/errors";
import type { LedgerCall } from "./ledger";

export type CallDetail = {
  cacheKey: string;
  /** The accepted request and reply (the cache keeps only replies that validated). */
  cached: { model: string; endpoint: string; request: unknown; response: string; promptTokens: number; completionTokens: number } | null;
  /** Every ledger attempt under this key (retries, invalid replies, cache hits), oldest first. */
  attempts: LedgerCall[];
};

/**
 * One model call by its cache key, as memory entries name it: the request, the accepted reply and
 * every attempt in the ledger. A key found in neither is a 404.
 */
export function callDetail(db: Db, cacheKey: string): CallDetail {
  if (!/^[0-9a-f]{16,128}$/i.test(cacheKey))
    throw new InvalidInputError(`call key: expected a hex cache key, got "${cacheKey.slice(0, 80)}"`);
  const c = db.select().from(llmCache).where(eq(llmCache.key, cacheKey)).get();
  const attempts = db.select().from(llmCalls).where(eq(llmCalls.cacheKey, cacheKey)).orderBy(asc(llmCalls.id)).all();
  if (!c && attempts.length === 0) throw new NotFoundError(`no model call with key ${cacheKey}`);
  return {
    cacheKey,
    cached: c
      ? {
          model: c.model,
          endpoint: c.endpoint,
          request: c.request,
          response: c.response,
          promptTokens: c.promptTokens,
          completionTokens: c.completionTokens,
        }
      : null,
    attempts,
  };
}
