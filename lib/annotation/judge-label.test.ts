import { describe, expect, it } from "vitest";
import { judgeRunLabel } from "./judge-label";

describe("judgeRunLabel (issue 26, item 5)", () => {
  it("names the model once: never 'LLM dialogue-pair (stand-in) (stand-in)'", () => {
    expect(judgeRunLabel({ name: "LLM dialogue-pair (stand-in)", model: "stand-in" })).toBe("LLM dialogue-pair (stand-in)");
    expect(judgeRunLabel({ name: "LLM dialogue-pair (judge:gpt, t=0)", model: "gpt-4o" })).toBe(
      "LLM dialogue-pair (judge:gpt, t=0) (gpt-4o)",
    );
    expect(judgeRunLabel({ name: "GPT-4 verdicts", model: "gpt-4" })).toBe("GPT-4 verdicts");
    expect(judgeRunLabel({ name: "imported", model: "qwen2.5-72b" })).toBe("imported (qwen2.5-72b)");
    expect(judgeRunLabel({ name: "imported", model: null })).toBe("imported");
  });
});
