/** reasoning.ts: a reasoning model's thinking split off its answer. */
import { describe, expect, it } from "vitest";
import { splitReasoning } from "./reasoning";

describe("splitReasoning", () => {
  it("splits the thinking off: a <think> block, a lone closing tag, reasoning_content; a reply cut off while thinking has no answer", () => {
    expect(splitReasoning('<think>\nhmm {"a": 0}\n</think>\n{"a": 1}')).toMatchObject({ answer: '{"a": 1}', reasoning: 'hmm {"a": 0}' });
    expect(splitReasoning('so... </think> {"a": 1}')).toMatchObject({ answer: '{"a": 1}', reasoning: "so..." });
    expect(splitReasoning('{"a": 1}', "first I")).toEqual({
      answer: '{"a": 1}',
      reasoning: "first I",
      raw: '<think>first I</think>\n{"a": 1}',
    });
    expect(splitReasoning("<think>still going")).toMatchObject({ answer: "", reasoning: "still going" });
    expect(splitReasoning('{"a": 1}')).toEqual({ answer: '{"a": 1}', reasoning: null, raw: '{"a": 1}' });
  });
});
