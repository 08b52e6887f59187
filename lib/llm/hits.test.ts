/** hits.ts: the persistent cache's answer, recorded once per call the algorithm makes; prefetches and deferred hits. */
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { ask, llmClientPerTest, Req, viewOf } from "@/test/llm-client-env";
import { storeReply } from "./cache";
import type { Core } from "./core";
import { cacheLookup, deferredCount, takeDeferred } from "./hits";
import { prepareCall, type Call } from "./request";

const env = llmClientPerTest();
const NO_USAGE = { promptTokens: 0, completionTokens: 0, cachedTokens: 0, reasoningTokens: 0 };

/** A call with its reply already cached. */
function cachedCall(core: Core, content: string, reply: string, view = viewOf()): Call<{ requirement: string }> {
  const call = prepareCall(core, view, { messages: ask(content), schema: Req, purpose: "t.hit", params: { temperature: 0.2 } });
  storeReply(core.db, {
    key: call.cacheKey,
    endpoint: call.cfg.baseURL,
    model: call.cfg.model,
    request: {},
    response: reply,
    usage: NO_USAGE,
  });
  return call;
}

describe("cacheLookup", () => {
  it("answers from the cache with a hit row (the parameters it was asked with) committed by the time the answer resolves", async () => {
    const core = env.core();
    expect(cacheLookup(core, viewOf(), prepareCall(core, viewOf(), { messages: ask("x"), purpose: "t" }))).toBeNull();
    const call = cachedCall(core, "a", '{"requirement": "r"}');
    const found = await cacheLookup(core, viewOf(), call);
    expect(found).toMatchObject({ value: { requirement: "r" }, cacheHit: true, usage: NO_USAGE });
    expect(env.ledger().map((r) => [r.cacheHit, r.status, r.purpose, r.temperature])).toEqual([[true, "ok", "t.hit", 0.2]]);
    expect(core.stats.cacheHits).toBe(1);
  });

  it("asks again (null, no row) when the cached reply no longer validates", () => {
    const core = env.core();
    expect(cacheLookup(core, viewOf(), cachedCall(core, "a", '{"other": 1}'))).toBeNull();
    expect(env.ledger()).toHaveLength(0);
  });

  it("writes the hits of one event-loop turn in one commit, not one commit each", async () => {
    const core = env.core();
    const calls = ["a", "b", "c"].map((c) => cachedCall(core, c, '{"requirement": "r"}'));
    const other = new Database(env.file, { readonly: true });
    try {
      const rows = () => (other.prepare("SELECT count(*) AS n FROM llm_calls").get() as { n: number }).n;
      const found = calls.map((c) => cacheLookup(core, viewOf(), c));
      expect(rows()).toBe(0);
      await Promise.all(found);
      expect(rows()).toBe(3);
    } finally {
      other.close();
    }
  });

  it("records nothing for a prefetch's hit, nor for the reply a prefetch paid for (once)", async () => {
    const core = env.core();
    const call = cachedCall(core, "a", '{"requirement": "r"}');
    expect(await cacheLookup(core, viewOf({ prefetch: true }), call)).toMatchObject({ cacheHit: true });
    core.prefetchPaid.add(call.cacheKey);
    await cacheLookup(core, viewOf(), call);
    expect(env.ledger()).toHaveLength(0);
    await cacheLookup(core, viewOf(), call);
    expect(env.ledger()).toHaveLength(1);
  });

  it("keeps a deferring view's hit rows until its origin takes them, once", async () => {
    const core = env.core();
    const view = viewOf({ deferHits: true, origin: { jobId: 5 } });
    await cacheLookup(core, view, cachedCall(core, "a", '{"requirement": "r"}', view));
    expect(env.ledger()).toHaveLength(0);
    expect(deferredCount(core, { jobId: 6 })).toBe(0);
    expect(deferredCount(core, { jobId: 5 })).toBe(1);
    expect(takeDeferred(core, { jobId: 5 }).map((r) => [r.cacheHit, r.origin])).toEqual([[true, { jobId: 5 }]]);
    expect(takeDeferred(core, { jobId: 5 })).toEqual([]);
  });
});
