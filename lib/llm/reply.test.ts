/** reply.ts: a reply's usage (read once, believed or not), its reasoning and its finish_reason. */
import { describe, expect, it } from "vitest";
import { llmClientPerTest } from "@/test/llm-client-env";
import { readReply, readUsage, type Completion } from "./reply";

const env = llmClientPerTest();
const usage = { promptTokens: 10, completionTokens: 4, cachedTokens: 0, reasoningTokens: 0 };
const raw = { prompt_tokens: 10, completion_tokens: 4 };
const reply = (o: Partial<Completion> = {}): Completion => ({
  content: "answer",
  reasoning: null,
  finishReason: "stop",
  model: "served",
  usage,
  rawUsage: raw,
  ...o,
});

describe("readUsage", () => {
  it("reads every count of an OpenAI usage object, absent ones as 0", () => {
    expect(
      readUsage({
        prompt_tokens: 5,
        completion_tokens: 2,
        prompt_tokens_details: { cached_tokens: 1 },
        completion_tokens_details: { reasoning_tokens: 3 },
      }),
    ).toEqual({ promptTokens: 5, completionTokens: 2, cachedTokens: 1, reasoningTokens: 3 });
    expect(readUsage(null)).toEqual({ promptTokens: 0, completionTokens: 0, cachedTokens: 0, reasoningTokens: 0 });
  });
});

describe("readReply", () => {
  it("counts the tokens, keeps the served model and splits the reasoning off (the endpoint is then known to think)", () => {
    const core = env.core();
    const r = readReply(core, "ep", reply({ content: "<think>hmm</think>answer" }), 100, "prompt");
    expect(r).toMatchObject({
      answer: "answer",
      rawReply: "<think>hmm</think>answer",
      usage,
      cutOff: null,
      servedModel: "served",
      usageFlags: {},
    });
    expect(core.stats).toMatchObject({ promptTokens: 10, completionTokens: 4 });
    expect(core.reasoning.has("ep")).toBe(true);
  });

  it("marks a reply that ended at max_tokens as cut off, whatever it parses as", () => {
    const core = env.core();
    expect(readReply(core, "ep", reply({ finishReason: "length" }), 64, "p").cutOff).toMatch(/64 tokens/);
    expect(core.stats.cutOff).toBe(1);
  });

  it("does not believe impossible counts, and flags a stream's counted chunks as an estimate", () => {
    const core = env.core();
    const bad = readReply(core, "ep", reply({ rawUsage: { prompt_tokens: -5, completion_tokens: 4 } }), 100, "p");
    expect(bad.usageFlags.usageUnknown).toBe(true);
    const counted = readReply(core, "ep", reply({ estimated: true }), 100, "p");
    expect(counted).toMatchObject({ estimated: true, usageFlags: { usageUnknown: true, worstCase: { completionTokens: 100 } } });
  });
});
