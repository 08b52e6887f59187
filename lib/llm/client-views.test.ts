/** Embeddings, and the views of one client: queue priority, prefetch groups and deferred cache hits (embed.ts, hits.ts, slot.ts). */
import { describe, expect, it } from "vitest";
import { ask, llmClientPerTest, Req } from "@/test/llm-client-env";
import { ModelClient } from "./client";

const env = llmClientPerTest();
const { client, ledger } = env;

describe("ModelClient queue priority, prefetches and deferred cache hits", () => {
  // One slot: the order requests reach the server is the queue's order.
  const order = () => env.fake.chatRequests.map((r) => String(r.messages[0].content));
  const slow = () => env.fake.setResponder(() => ({ content: '{"requirement": "ok"}', delayMs: 30 }));

  it("gives a free slot to the highest priority waiting, equal priorities in arrival order", async () => {
    slow();
    const c = client({ concurrency: { assistant: 1 } });
    const call = (v: ModelClient, name: string) => v.chat({ messages: ask(name), schema: Req, purpose: "test.priority" });
    await Promise.all([
      call(c, "first"), // takes the slot at once
      call(c.withPriority(1), "low-a"),
      call(c.withPriority(5), "high"),
      call(c.withPriority(1), "low-b"),
      call(c.withPriority(3), "mid"),
    ]);
    expect(order()).toEqual(["first", "high", "mid", "low-a", "low-b"]);
  });

  it("raises a waiting prefetch when its group is due, and when an identical call of higher priority joins it", async () => {
    slow();
    const c = client({ concurrency: { assistant: 1 } });
    const call = (v: ModelClient, name: string) => v.chat({ messages: ask(name), schema: Req, purpose: "test.priority" });
    const all = [
      call(c, "first"),
      call(c.prefetching("later", -10), "prefetch-later"),
      call(c.prefetching("due", -10), "prefetch-due"),
      call(c.prefetching("joined", -10), "prefetch-joined"),
      call(c.withPriority(2), "chain"),
    ];
    c.raiseGroup("due", 3);
    all.push(call(c.withPriority(4), "prefetch-joined")); // the same request: joins the queued one and lends it priority 4
    await Promise.all(all);
    expect(order()).toEqual(["first", "prefetch-joined", "prefetch-due", "chain", "prefetch-later"]);
  });

  it("drops the waiting calls of a cancelled group when they get a slot, without asking the model", async () => {
    slow();
    const c = client({ concurrency: { assistant: 1 } });
    const call = (v: ModelClient, name: string) => v.chat({ messages: ask(name), schema: Req, purpose: "test.cancel" });
    const running = call(c.prefetching("stopped", 0), "started");
    // Its slot comes as soon as the first reply is back, before that call has committed: handled from the start.
    const waiting = call(c.prefetching("stopped", 0), "waiting").then(
      () => "answered",
      (e: Error) => e.message,
    );
    const other = call(c.prefetching("kept", 0), "kept");
    c.cancelGroup("stopped");
    await expect(running).resolves.toMatchObject({ value: { requirement: "ok" } }); // already had its slot
    expect(await waiting).toMatch(/not asked: group stopped was cancelled/);
    await expect(other).resolves.toMatchObject({ value: { requirement: "ok" } });
    expect(order()).toEqual(["started", "kept"]);
    expect(ledger().map((r) => r.purpose)).toEqual(["test.cancel", "test.cancel"]);
  });

  it("records one ledger row per call the build makes: the prefetch's paid attempt stands for the identical later call", async () => {
    env.fake.setResponder(() => '{"requirement": "ok"}');
    const c = client({ origin: {} });
    await c.prefetching("g", 0).chat({ messages: ask("ahead"), schema: Req, purpose: "test.prefetch" });
    await c.chat({ messages: ask("ahead"), schema: Req, purpose: "test.prefetch" }); // the build's own call: no second row
    expect(ledger().map((r) => [r.cacheHit, r.status])).toEqual([[false, "ok"]]);
    // A later identical call (e.g. a rebuild) is an ordinary cache hit again.
    await c.chat({ messages: ask("ahead"), schema: Req, purpose: "test.prefetch" });
    expect(ledger().map((r) => r.cacheHit)).toEqual([false, true]);
    // A prefetch answered from the cache records nothing.
    await c.prefetching("g", 0).chat({ messages: ask("ahead"), schema: Req, purpose: "test.prefetch" });
    expect(ledger()).toHaveLength(2);
    expect(env.fake.chatRequests).toHaveLength(1);
  });

  it("keeps a deferring view's cache hits until they are taken, and writes paid calls at once", async () => {
    env.fake.setResponder(() => '{"requirement": "ok"}');
    const c = client();
    const job = c.withOrigin({}).deferringHits();
    await job.chat({ messages: ask("once"), schema: Req, purpose: "test.defer" });
    expect(ledger()).toHaveLength(1); // paid: written at once
    await job.chat({ messages: ask("once"), schema: Req, purpose: "test.defer" });
    await job.withReplicate(0).chat({ messages: ask("once"), schema: Req, purpose: "test.defer" });
    expect(ledger()).toHaveLength(1);
    expect(c.deferredHitsOf({})).toBe(2);
    expect(c.deferredHitsOf({ jobId: 8 })).toBe(0);
    expect(c.takeDeferredHits({ jobId: 8 })).toEqual([]); // another origin's rows stay
    const rows = c.takeDeferredHits({});
    expect(rows.map((r) => [r.origin.jobId, r.cacheHit, r.purpose])).toEqual([
      [undefined, true, "test.defer"],
      [undefined, true, "test.defer"],
    ]);
    expect(c.takeDeferredHits({})).toEqual([]);
  });
});

describe("ModelClient.embed", () => {
  it("caches vectors per (endpoint, model, text) and requests only the missing ones", async () => {
    const c = client();
    const a = await c.embed(["alpha", "beta", "alpha"], { purpose: "test.embed" });
    expect(a).toHaveLength(3);
    expect(a[0]).toEqual(a[2]);
    expect(env.fake.embeddingRequests).toHaveLength(1);
    expect(env.fake.embeddingRequests[0].input).toEqual(["alpha", "beta"]);
    const b = await client().embed(["beta", "gamma"], { purpose: "test.embed" });
    expect(b[0]).toEqual(a[1]);
    expect(env.fake.embeddingRequests[1].input).toEqual(["gamma"]);
    await client().embed(["alpha", "gamma"], { purpose: "test.embed" });
    expect(env.fake.embeddingRequests).toHaveLength(2);
  });
});
