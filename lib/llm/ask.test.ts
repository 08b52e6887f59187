/**
 * ask.ts: the rounds of one call. A reply that fails its schema is recorded as invalid and the next round
 * asks again with that reply and what was wrong with it; an accepted reply is cached; after the
 * regenerations the call fails naming its purpose, with a row per round.
 */
import { describe, expect, it } from "vitest";
import { Req, ask, llmClientPerTest, viewOf } from "@/test/llm-client-env";
import { askModel } from "./ask";
import { ModelCallError } from "./errors";
import { prepareCall } from "./request";

const env = llmClientPerTest();

describe("askModel", () => {
  it("asks again after an invalid reply, showing the model its reply and the error, and accepts the next", async () => {
    env.fake.enqueue('{"wrong": 1}', '{"requirement": "a quiet hotel"}');
    const core = env.core();
    const call = prepareCall(core, viewOf(), { messages: ask("restate"), purpose: "t.ask", schema: Req });
    const r = await askModel(core, viewOf(), call);
    expect(r.value).toEqual({ requirement: "a quiet hotel" });
    expect(env.ledger().map((x) => [x.status, x.purpose])).toEqual([
      ["invalid", "t.ask"],
      ["ok", "t.ask"],
    ]);
    // The second request carries the first reply and a correction naming the missing key.
    const second = env.fake.chatRequests[1].messages;
    expect(second.some((m) => m.role === "assistant" && String(m.content).includes('"wrong"'))).toBe(true);
    expect(String(second[second.length - 1].content)).toMatch(/requirement/);
    // The accepted reply is cached under the call's key (the rejected one is not): hits.ts answers from it.
    expect(env.cacheKeys()).toEqual([call.cacheKey]);
  });

  it("after the regenerations the call fails as invalid, naming its purpose, one row per round", async () => {
    env.fake.setResponder(() => "not json at all");
    const core = env.core({ regenerations: 1 });
    const call = prepareCall(core, viewOf(), { messages: ask("restate"), purpose: "t.ask", schema: Req });
    const e = await askModel(core, viewOf(), call).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ModelCallError);
    expect((e as ModelCallError).message).toMatch(/^t\.ask: no valid reply after 2 tries/);
    expect(env.ledger().map((x) => x.status)).toEqual(["invalid", "failed"]);
  });
});
