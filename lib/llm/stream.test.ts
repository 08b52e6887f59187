/**
 * Streamed replies against the fake server's server-sent events: a slow but steady reply outlives the
 * request timeout, a stalled one is cut by the idle timeout and its row records the tokens it streamed,
 * and endpoints that refuse streaming or stream_options (or ignore `stream`) are asked the other way,
 * once, remembered.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { asc } from "drizzle-orm";
import { tempDb } from "@/test/db";
import { startFakeOpenAI, type FakeOpenAI, type FakeOpenAIOptions } from "@/test/fake-openai";
import { llmCalls } from "@/db/schema";
import type { Db } from "@/db/client";
import { ModelClient } from "./client";
import { StreamAccumulator } from "./stream";

let fake: FakeOpenAI;
let t: ReturnType<typeof tempDb>;
let db: Db;

async function serve(o: FakeOpenAIOptions = {}) {
  fake = await startFakeOpenAI(o);
  vi.stubEnv("OPENAI_BASE_URL", fake.baseURL);
}

beforeEach(() => {
  t = tempDb();
  db = t.db;
  vi.stubEnv("OPENAI_API_KEY", "test-key");
  vi.stubEnv("PAL_MODEL_ASSISTANT", "fake-assistant");
});
afterEach(async () => {
  vi.unstubAllEnvs();
  await fake?.close();
  t.cleanup();
});

const ledger = () => db.select().from(llmCalls).orderBy(asc(llmCalls.id)).all();
const ask = (content: string) => [{ role: "user" as const, content }];

describe("streamed replies", () => {
  it("a reply that keeps arriving is not cut by the request timeout", async () => {
    await serve({ chunkMs: 60 });
    fake.enqueue({ content: "a steady reply of twenty tokens", completionTokens: 25 }); // 25 × 60 ms = 1.5 s
    const c = ModelClient.create(db, { timeoutMs: 1000, streamIdleMs: 500, retries: 0, streamMinTokens: 0 });
    const r = await c.chat({ messages: ask("go"), purpose: "test.stream" });
    expect(r.text).toBe("a steady reply of twenty tokens");
    expect(r.usage.completionTokens).toBe(25);
    expect(fake.chatRequests[0]).toMatchObject({ stream: true, stream_options: { include_usage: true } });
    expect(ledger().map((x) => [x.status, x.completionTokens, x.usageUnknown])).toEqual([["ok", 25, false]]);
    expect(c.stats.timeouts).toBe(0);
  });

  it("a server that closes the connection after a streamed reply (llama.cpp) costs the next request nothing", async () => {
    await serve({ closeAfterStream: true });
    const c = ModelClient.create(db, { retries: 0, streamMinTokens: 100 });
    for (let i = 0; i < 3; i++) {
      fake.enqueue({ content: `long ${i}`, completionTokens: 5 });
      fake.enqueue({ content: `short ${i}`, completionTokens: 2 });
      await c.chat({ messages: ask(`long ${i}`), purpose: "test.stream", maxTokens: 200 });
      // Sent at once on whatever socket the pool holds: the streamed reply's must not be one of them.
      await c.chat({ messages: ask(`short ${i}`), purpose: "test.whole", maxTokens: 20 });
    }
    expect(ledger().map((x) => [x.purpose, x.status])).toEqual(
      Array.from({ length: 3 }, () => [
        ["test.stream", "ok"],
        ["test.whole", "ok"],
      ]).flat(),
    );
    expect(fake.chatRequests.map((r) => r.stream === true)).toEqual([true, false, true, false, true, false]);
  });

  it("without streaming the same reply runs into the request timeout (what streaming fixes)", async () => {
    await serve({ chunkMs: 40 });
    fake.enqueue({ content: "a steady reply", completionTokens: 20 });
    const c = ModelClient.create(db, { timeoutMs: 300, retries: 0, stream: false });
    // Not streamed, the fake still answers after 800 ms: the SDK's timeout fires first.
    fake.setFault((req) => (req.stream ? undefined : { kind: "hang" }));
    await expect(c.chat({ messages: ask("go"), purpose: "test.stream" })).rejects.toThrow(/timeout/);
  });

  it("a stream that stalls midway is cut by the idle timeout, and its row records the tokens it streamed", async () => {
    await serve({ chunkMs: 5 });
    fake.enqueue({ content: "x".repeat(200), completionTokens: 50, stallAfterChunks: 12 }, "the retry's reply");
    const c = ModelClient.create(db, { timeoutMs: 3000, streamIdleMs: 700, retries: 1, retryBaseMs: 5, streamMinTokens: 0 });
    const r = await c.chat({ messages: ask("go"), purpose: "test.stream" });
    expect(r.text).toBe("the retry's reply");
    const rows = ledger();
    expect(rows.map((x) => [x.status, x.completionTokens, x.usageUnknown])).toEqual([
      ["retry", 12, true],
      ["ok", expect.any(Number), false],
    ]);
    expect(rows[0].error).toMatch(/timeout \(the stream was cut after 12 completion tokens, counted from its chunks/);
    expect(c.stats.timeouts).toBe(1);
    // The ledger holds every token the server generated, the cut reply's included.
    expect(rows.reduce((n, x) => n + x.completionTokens, 0)).toBe(fake.served.completionTokens);
  });

  it("a stream past its overall cap (request timeout + output budget × ms per token) is cut too", async () => {
    await serve({ chunkMs: 50 });
    fake.enqueue({ content: "y".repeat(100), completionTokens: 100 });
    const c = ModelClient.create(db, { timeoutMs: 1000, streamIdleMs: 2000, streamMsPerToken: 5, retries: 0, streamMinTokens: 0 });
    await expect(c.chat({ messages: ask("go"), purpose: "test.stream", maxTokens: 100 })).rejects.toThrow(/timeout/);
    const [row] = ledger();
    expect(row.status).toBe("failed");
    expect(row.completionTokens).toBeGreaterThan(0);
    // A chunk the server wrote as the client cut the stream may not have been read.
    expect(fake.served.completionTokens - row.completionTokens).toBeGreaterThanOrEqual(0);
    expect(fake.served.completionTokens - row.completionTokens).toBeLessThanOrEqual(1);
  });

  it("an endpoint that refuses stream_options streams without it, remembered", async () => {
    await serve({ streaming: "stream_options" });
    const c = ModelClient.create(db, { retries: 0, streamMinTokens: 0 });
    await c.chat({ messages: ask("one"), purpose: "test.stream" });
    await c.chat({ messages: ask("two"), purpose: "test.stream" });
    expect(fake.chatRequests.map((r) => [r.stream, "stream_options" in r])).toEqual([
      [true, true],
      [true, false],
      [true, false],
    ]);
    const rows = ledger();
    expect(rows[0]).toMatchObject({ status: "retry", error: expect.stringMatching(/refused stream_options/) });
    // Without usage, the tokens are counted from the chunks and the prompt's are unknown.
    expect(rows.slice(1).map((x) => [x.status, x.usageUnknown, x.completionTokens > 0])).toEqual([
      ["ok", true, true],
      ["ok", true, true],
    ]);
  });

  it("an endpoint that refuses streaming is asked whole, remembered; one that ignores it is answered whole", async () => {
    await serve({ streaming: "stream" });
    const c = ModelClient.create(db, { retries: 0, streamMinTokens: 0 });
    expect((await c.chat({ messages: ask("one"), purpose: "test.stream" })).text).toBe("echo: one");
    await c.chat({ messages: ask("two"), purpose: "test.stream" });
    expect(fake.chatRequests.map((r) => r.stream ?? false)).toEqual([true, false, false]);
    expect(ledger()[0]).toMatchObject({ status: "retry", error: expect.stringMatching(/does not stream/) });
    await fake.close();

    await serve({ streaming: "ignore" });
    const d = ModelClient.create(db, { retries: 0, streamMinTokens: 0 });
    expect((await d.chat({ messages: ask("three"), purpose: "test.stream" })).text).toBe("echo: three");
    await d.chat({ messages: ask("four"), purpose: "test.stream" });
    expect(fake.chatRequests.map((r) => r.stream ?? false)).toEqual([true, false]);
    expect(
      ledger()
        .slice(-2)
        .map((x) => [x.status, x.usageUnknown]),
    ).toEqual([
      ["ok", false],
      ["ok", false],
    ]);
  });
});

describe("StreamAccumulator", () => {
  it("gathers content, reasoning, finish_reason and the usage of the last chunk", () => {
    const a = new StreamAccumulator();
    a.add({ model: "m", choices: [{ delta: { content: null } }] });
    a.add({ choices: [{ delta: { reasoning_content: "think" } }] });
    a.add({ choices: [{ delta: { content: "Hel" } }] });
    a.add({ choices: [{ delta: { content: "lo" }, finish_reason: "stop" }] });
    expect(a.streamed()).toMatchObject({ estimated: true, chunks: 3, usage: { completionTokens: 3 } });
    a.add({ choices: [], usage: { prompt_tokens: 7, completion_tokens: 4 } });
    expect(a.complete()).toEqual({
      content: "Hello",
      reasoning: "think",
      finishReason: "stop",
      model: "m",
      usage: { promptTokens: 7, completionTokens: 4, cachedTokens: 0, reasoningTokens: 0 },
      rawUsage: { prompt_tokens: 7, completion_tokens: 4 },
      estimated: false,
    });
  });

  it("a stream that ended before its finish_reason is an error carrying what it streamed", () => {
    const a = new StreamAccumulator();
    a.add({ choices: [{ delta: { content: "par" } }] });
    expect(() => a.complete()).toThrow(/ended before the reply was complete/);
    try {
      a.complete();
    } catch (e) {
      expect((e as { streamed: unknown }).streamed).toMatchObject({ chunks: 1, estimated: true });
    }
    expect(() => new StreamAccumulator().complete()).toThrow(/no stream events/);
  });
});
