/**
 * Shared setup of lib/llm's tests: the fake OpenAI-compatible server (TEST DOUBLE) per test with the
 * client's environment pointed at it (fake-model-env.ts), a temp database, and the model client or its
 * shared core made over it with fast retries and a short timeout.
 */
import { asc } from "drizzle-orm";
import { beforeEach, vi } from "vitest";
import { z } from "zod";
import { llmCache, llmCalls } from "@/db/schema";
import { ModelClient } from "@/lib/llm/client";
import { plainView, type View } from "@/lib/llm/client-types";
import { createCore } from "@/lib/llm/core";
import { fakeModelPerTest } from "./fake-model-env";
import type { Responder } from "./fake-openai";
import type { tempDb } from "./db";

type Options = NonNullable<Parameters<typeof ModelClient.create>[1]>;

export function llmClientPerTest(respond?: Responder) {
  const env = fakeModelPerTest(respond);
  let t: ReturnType<typeof tempDb> | undefined;
  beforeEach(() => {
    vi.stubEnv("PAL_MODEL_JUDGE", "fake-judge");
    vi.stubEnv("PAL_MODEL_EMBEDDING", "fake-embed");
    t = env.db();
  });
  const temp = () => {
    if (!t) throw new Error("the test database exists only inside a test");
    return t;
  };
  const fast = (o: Options): Options => ({ retryBaseMs: 5, timeoutMs: 400, ...o });
  return {
    get fake() {
      return env.fake;
    },
    get db() {
      return temp().db;
    },
    /** The database file (for a second connection). */
    get file() {
      return temp().file;
    },
    client: (o: Options = {}) => ModelClient.create(temp().db, fast(o)),
    /** What every view of a client shares (core.ts), for the pipeline's units. */
    core: (o: Options = {}) => createCore(temp().db, fast(o)),
    ledger: () => temp().db.select().from(llmCalls).orderBy(asc(llmCalls.id)).all(),
    /** The keys of the cached replies. */
    cacheKeys: () =>
      temp()
        .db.select({ key: llmCache.key })
        .from(llmCache)
        .all()
        .map((c) => c.key),
  };
}

export const ask = (content: string) => [{ role: "user" as const, content }];
export const Req = z.object({ requirement: z.string() });

/** A view of a client (client-types.ts View): what the pipeline's units are handed with each call. */
export const viewOf = (o: Partial<View> = {}): View => ({ ...plainView(), ...o });
