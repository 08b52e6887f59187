/**
 * batch-calls.ts: a collecting view hands a call over (with the output budget the online call would send)
 * instead of sending it; a batch line is accepted as an online reply would be: valid, it is cached with its
 * row; invalid or cut off, its paid attempt is recorded with the raw reply and nothing is cached.
 */
import { describe, expect, it } from "vitest";
import { Req, ask, llmClientPerTest, viewOf } from "@/test/llm-client-env";
import { acceptBatchLine, collectCall } from "./batch-calls";
import { DeferredCallError, type CollectedCall } from "./client-types";
import { prepareCall } from "./request";

const env = llmClientPerTest();
const usage = { promptTokens: 12, completionTokens: 5, cachedTokens: 0, reasoningTokens: 0 };

/** One call collected for a batch (nothing sent). */
function collected(content: string): CollectedCall {
  const core = env.core();
  let got: CollectedCall | undefined;
  expect(() =>
    collectCall(
      core,
      (c) => (got = c),
      prepareCall(core, viewOf(), { messages: ask(content), purpose: "t.batch", role: "judge", schema: Req }),
    ),
  ).toThrow(DeferredCallError);
  return got!;
}

describe("batch calls", () => {
  it("a collected call carries the online call's output budget and sends nothing", () => {
    const c = collected("judge this");
    expect(c).toMatchObject({ purpose: "t.batch", role: "judge", messages: ask("judge this") });
    expect(typeof c.params.max_tokens).toBe("number");
    expect(env.fake.chatRequests).toHaveLength(0);
    expect(env.ledger()).toHaveLength(0);
  });

  it("a valid line is cached with its row; an invalid or cut-off one is recorded with its reply and not cached; an error line fails", () => {
    const core = env.core();
    const ok = collected("one");
    expect(acceptBatchLine(core, viewOf(), ok, { raw: '{"requirement": "quiet"}', usage, status: "ok" })).toBe(true);
    const bad = collected("two");
    expect(acceptBatchLine(core, viewOf(), bad, { raw: '{"other": 1}', usage, status: "ok" })).toBe(false);
    const cut = collected("three");
    expect(acceptBatchLine(core, viewOf(), cut, { raw: '{"requirement": "qu', usage, status: "ok", finishReason: "length" })).toBe(false);
    const failed = collected("four");
    expect(acceptBatchLine(core, viewOf(), failed, { raw: "", usage, status: "error", error: "rate limited" })).toBe(false);
    expect(env.ledger().map((x) => [x.status, x.cacheKey === ok.cacheKey, x.promptTokens, x.rawReply !== null])).toEqual([
      ["ok", true, 12, false],
      ["invalid", false, 12, true],
      ["invalid", false, 12, true],
      ["failed", false, 12, false],
    ]);
    expect(env.ledger()[3].error).toBe("batch: rate limited");
    expect(env.cacheKeys()).toEqual([ok.cacheKey]);
  });

  it("a run that keeps cut-off replies as returned (cut_off: as-returned) accepts a cut-off line that parses, noted so", () => {
    const core = env.core();
    let got: CollectedCall | undefined;
    const call = prepareCall(core, viewOf(), {
      messages: ask("five"),
      purpose: "t.batch",
      role: "judge",
      schema: Req,
      params: { cut_off: "as-returned", max_tokens: 512 },
    });
    expect(call.params).not.toHaveProperty("cut_off"); // read by the client, never sent
    expect(() => collectCall(core, (c) => (got = c), call)).toThrow(DeferredCallError);
    expect(got).toMatchObject({ keepCutOff: true, params: { max_tokens: 512 } });
    expect(acceptBatchLine(core, viewOf(), got!, { raw: '{"requirement": "quiet"}', usage, status: "ok", finishReason: "length" })).toBe(
      true,
    );
    expect(env.ledger().map((x) => [x.status, x.error])).toEqual([["ok", "cut off at max_tokens, kept as returned"]]);
  });
});
