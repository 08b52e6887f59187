/** Which reported usage is believed (issue 30.1): negative, non-integer, missing or impossible counts are not. */
import { describe, expect, it } from "vitest";
import { checkUsage, promptTokenBound, usageTokens } from "./usage-check";

const messages = [
  { role: "system", content: "You are helpful." },
  { role: "user", content: "What should I cook tonight?" },
];
const sent = { prompt: messages, outputBudget: 256 };

describe("checkUsage", () => {
  it("believes honest counts, details included", () => {
    const u = checkUsage(
      {
        prompt_tokens: 30,
        completion_tokens: 200,
        prompt_tokens_details: { cached_tokens: 10 },
        completion_tokens_details: { reasoning_tokens: 50 },
      },
      sent,
    );
    expect(u).toEqual({ promptTokens: 30, completionTokens: 200, cachedTokens: 10, reasoningTokens: 50 });
  });

  it.each([
    [{ prompt_tokens: -1_000_000_000, completion_tokens: -5 }, /prompt_tokens -1000000000 is not a count/],
    [{ prompt_tokens: 30, completion_tokens: -5 }, /completion_tokens -5 is not a count/],
    [{ prompt_tokens: 30.5, completion_tokens: 5 }, /prompt_tokens 30.5 is not a count/],
    [{ prompt_tokens: "30", completion_tokens: 5 }, /prompt_tokens "30" is not a count/],
    [{ prompt_tokens: Infinity, completion_tokens: 5 }, /not a count/],
    [{ prompt_tokens: 30 }, /completion_tokens missing/],
    [null, /no usage/],
    [{ prompt_tokens: 5_000_000, completion_tokens: 5 }, /far above what the request can hold/],
    [{ prompt_tokens: 30, completion_tokens: 100_000 }, /above the output budget sent \(256\)/],
  ])("does not believe %j", (raw, why) => {
    const u = checkUsage(raw, sent);
    expect(u.usageUnknown).toBe(true);
    expect(u.usageNote).toMatch(why);
    expect([u.promptTokens, u.completionTokens, u.cachedTokens, u.reasoningTokens]).toEqual([0, 0, 0, 0]);
    // The worst case: the prompt's bound plus the output budget sent.
    expect(u.worstCase).toEqual({ promptTokens: promptTokenBound(messages), completionTokens: 256 });
  });

  it("bounds the prompt by its UTF-8 bytes (one token per byte at most) and the template", () => {
    expect(promptTokenBound(messages)).toBeGreaterThan(Buffer.byteLength(JSON.stringify(messages)));
    expect(promptTokenBound(messages)).toBeLessThan(1000);
    // Chinese text: three bytes a character, so a tokenizer's one or two tokens a character stay below the bound.
    const zh = [{ role: "user", content: "今天晚上吃什么".repeat(100) }];
    expect(checkUsage({ prompt_tokens: 1400, completion_tokens: 1 }, { prompt: zh, outputBudget: 10 }).usageUnknown).toBeUndefined();
  });

  it("drops details that are not counts and cuts those above their whole", () => {
    const u = checkUsage(
      {
        prompt_tokens: 30,
        completion_tokens: 20,
        prompt_tokens_details: { cached_tokens: 99 },
        completion_tokens_details: { reasoning_tokens: -3 },
      },
      sent,
    );
    expect(u).toEqual({ promptTokens: 30, completionTokens: 20, cachedTokens: 30, reasoningTokens: 0 });
  });

  it("an embedding needs no completion count and may report none generated", () => {
    expect(checkUsage({ prompt_tokens: 4 }, { prompt: ["a text"], embedding: true })).toEqual({
      promptTokens: 4,
      completionTokens: 0,
      cachedTokens: 0,
      reasoningTokens: 0,
    });
    expect(checkUsage({ prompt_tokens: 4, completion_tokens: 900 }, { prompt: ["a text"], embedding: true }).usageUnknown).toBe(true);
  });

  it("counts for the tokens-per-minute limiter are never negative", () => {
    expect(usageTokens({ prompt_tokens: -1e9, completion_tokens: -5 })).toBe(0);
    expect(usageTokens({ prompt_tokens: 10, completion_tokens: 5 })).toBe(15);
    expect(usageTokens(undefined)).toBe(0);
  });
});
