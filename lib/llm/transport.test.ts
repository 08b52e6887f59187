/** transport.ts: the openai SDK per endpoint, a whole reply read into one Completion, streaming chosen by budget. */
import { describe, expect, it } from "vitest";
import { ask, llmClientPerTest, viewOf } from "@/test/llm-client-env";
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
});
