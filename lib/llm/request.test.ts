/** request.ts: what a call asks, resolved once (parameters layered, the cache key, the ledger fields). */
import { describe, expect, it } from "vitest";
import { ask, llmClientPerTest, viewOf } from "@/test/llm-client-env";
import { budgetOf, prepareCall } from "./request";

const env = llmClientPerTest();

describe("prepareCall", () => {
  it("layers the parameters: the configuration's, under the run's for the role, under the call's own", () => {
    const core = env.core();
    const view = viewOf({ roleParams: { assistant: { temperature: 0.3, top_p: 0.9 }, judge: { temperature: 0 } } });
    const call = prepareCall(core, view, { messages: ask("hi"), purpose: "t", params: { top_p: 0.5 } });
    expect(call.params).toMatchObject({ temperature: 0.3, top_p: 0.5 });
    expect(call.role).toBe("assistant");
    expect(call.base).toMatchObject({ purpose: "t", role: "assistant", model: "fake-assistant", replicate: 0, origin: {} });
    const judged = prepareCall(core, view, { messages: ask("hi"), purpose: "t", role: "judge" });
    expect(judged.params.temperature).toBe(0);
    expect(judged.base.model).toBe("fake-judge");
  });

  it("keys identical requests alike; a replicate, a parameter or a message makes another key", () => {
    const core = env.core();
    const key = (o: Partial<Parameters<typeof prepareCall>[2]> = {}, view = viewOf()) =>
      prepareCall(core, view, { messages: ask("hi"), purpose: "t", ...o }).cacheKey;
    expect(key()).toBe(key({ purpose: "another purpose" }));
    expect(key({ replicate: 1 })).not.toBe(key());
    expect(key({}, viewOf({ replicate: 1 }))).toBe(key({ replicate: 1 }));
    expect(key({ params: { temperature: 1 } })).not.toBe(key());
    expect(key({}, viewOf({ roleParams: { assistant: { temperature: 1 } } }))).toBe(key({ params: { temperature: 1 } }));
    expect(key({ messages: ask("hello") })).not.toBe(key());
  });

  it("records the call's own origin over the view's", () => {
    const call = prepareCall(env.core(), viewOf({ origin: { jobId: 1 } }), { messages: ask("hi"), purpose: "t", origin: { jobId: 2 } });
    expect(call.base.origin).toEqual({ jobId: 2 });
  });
});

describe("budgetOf", () => {
  it("takes the call's explicit budget, else the role's, and grows after a cut-off", () => {
    const core = env.core();
    const call = prepareCall(core, viewOf(), { messages: ask("hi"), purpose: "t", maxTokens: 300 });
    expect(budgetOf(core, call, null, 0)).toBe(300);
    const plain = prepareCall(core, viewOf(), { messages: ask("hi"), purpose: "t" });
    expect(budgetOf(core, plain, 777, 0)).toBe(777);
    expect(budgetOf(core, plain, null, 1)).toBeGreaterThan(budgetOf(core, plain, null, 0));
  });
});
