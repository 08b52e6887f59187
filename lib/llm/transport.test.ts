/** transport.ts: the openai SDK per endpoint, a whole reply read into one Completion, streaming chosen by budget. */
import { describe, expect, it, vi } from "vitest";
import { ask, llmClientPerTest, viewOf } from "@/test/llm-client-env";
import { startLlamaLike } from "@/test/llama-like-server";
import { SpendGuard } from "./spend-guard";
import { prepareCall } from "./request";
import { sdkOf, sendChat, streams } from "./transport";

const env = llmClientPerTest();
const live = () => ({ streamed: null });

describe("the transport", () => {
  it("keeps one SDK client per endpoint, key and timeout", () => {
    const core = env.core();
    const call = prepareCall(core, viewOf(), { messages: ask("hi"), purpose: "t" });
    expect(sdkOf(core, call.cfg)).toBe(sdkOf(core, call.cfg));
    expect(sdkOf(core, { ...call.cfg, apiKey: "another" })).not.toBe(sdkOf(core, call.cfg));
    expect(core.sdks.size).toBe(2);
  });

  it("reads a whole reply: content, reasoning, finish_reason, the model served and its usage", async () => {
    const core = env.core();
    env.fake.enqueue({
      content: "yes",
      reasoningContent: "thinking",
      finishReason: "length",
      promptTokens: 7,
      completionTokens: 3,
      cachedTokens: 2,
    });
    const call = prepareCall(core, viewOf(), { messages: ask("hi"), purpose: "t" });
    const body = { model: call.cfg.model, messages: call.o.messages };
    const r = await sendChat(core, call.cfg, call.endpointKey, body, 100, live());
    expect(r).toMatchObject({ content: "yes", reasoning: "thinking", finishReason: "length", model: "fake-assistant" });
    expect(r.usage).toEqual({ promptTokens: 7, completionTokens: 3, cachedTokens: 2, reasoningTokens: 0 });
    expect(env.fake.chatRequests[0].stream).toBeUndefined();
  });

  it("streams a request with a large output budget, unless the endpoint refused streaming", async () => {
    const core = env.core({ streamMinTokens: 1000 });
    const call = prepareCall(core, viewOf(), { messages: ask("hi"), purpose: "t" });
    expect([streams(core, call.endpointKey, 999), streams(core, call.endpointKey, 1000)]).toEqual([false, true]);
    const r = await sendChat(core, call.cfg, call.endpointKey, { model: call.cfg.model, messages: call.o.messages }, 1000, live());
    expect(env.fake.chatRequests[0]).toMatchObject({ stream: true, stream_options: { include_usage: true } });
    expect(r.content).toBe("echo: hi");
    core.noStream.add(call.endpointKey);
    expect(streams(core, call.endpointKey, 1000)).toBe(false);
  });

  it("fails a 200 whose body is not a chat completion (a proxy's page) as a transport error", async () => {
    const core = env.core();
    env.fake.enqueue({ kind: "html" });
    const call = prepareCall(core, viewOf(), { messages: ask("hi"), purpose: "t" });
    await expect(
      sendChat(core, call.cfg, call.endpointKey, { model: call.cfg.model, messages: call.o.messages }, 100, live()),
    ).rejects.toThrow();
  });

  it("a server that ends a streamed reply without Connection: close (llama.cpp) gets every next request on a new connection", async () => {
    // 40.8: the socket of a streamed reply went back to the pool; the next request was written into it,
    // reset unread, and the ledger got a retry row (counted against the call cap) for a request never received.
    const llama = await startLlamaLike({ tokens: 4 });
    try {
      vi.stubEnv("OPENAI_BASE_URL", llama.baseURL);
      const guard = new SpendGuard({ maxCalls: 6, onTrip: () => undefined });
      const c = env.client({ retries: 2, streamMinTokens: 100, timeoutMs: 3000 }).withGuard(guard);
      for (let i = 0; i < 3; i++) {
        await c.chat({ messages: ask(`long ${i}`), purpose: "test.stream", maxTokens: 200 });
        // Sent at once: the streamed reply's connection must not be the one it goes on.
        await c.chat({ messages: ask(`short ${i}`), purpose: "test.whole", maxTokens: 20 });
      }
      expect(llama.unread).toBe(0);
      expect(llama.answered.map((a) => a.stream)).toEqual([true, false, true, false, true, false]);
      // Each streamed reply had its connection to itself; the whole replies shared theirs.
      const on = (stream: boolean) => llama.answered.filter((a) => a.stream === stream).map((a) => a.connection);
      expect(new Set(on(true)).size).toBe(3);
      expect(on(false).some((x) => on(true).includes(x))).toBe(false);
      expect(new Set(on(false)).size).toBe(1);
      const rows = env.ledger();
      expect(rows.map((r) => [r.status, r.completionTokens])).toEqual(Array.from({ length: 6 }, () => ["ok", 4]));
      // Six requests sent, six counted: the cap of 6 paid calls is reached exactly, not passed by phantom retries.
      expect(guard.room()).toBe(0);
      expect(guard.reason).toBeNull();
    } finally {
      await llama.close();
    }
  });

  it("whole replies still share one kept-alive connection", async () => {
    const llama = await startLlamaLike({ tokens: 2 });
    try {
      vi.stubEnv("OPENAI_BASE_URL", llama.baseURL);
      const c = env.client({ retries: 0, streamMinTokens: 100 });
      for (let i = 0; i < 3; i++) await c.chat({ messages: ask(`short ${i}`), purpose: "test.whole", maxTokens: 20 });
      expect(llama.answered.map((a) => a.connection)).toEqual([0, 0, 0]);
    } finally {
      await llama.close();
    }
  });
});
