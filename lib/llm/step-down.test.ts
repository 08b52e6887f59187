/** step-down.ts: refusals told apart from real HTTP errors of the fake server, each stepped down once and remembered. */
import { describe, expect, it, vi } from "vitest";
import { ask, llmClientPerTest, Req, viewOf } from "@/test/llm-client-env";
import type { Core } from "./core";
import { prepareCall } from "./request";
import { budgetParamOf, firstJsonMode, refusalOf, stepDown, type Asked } from "./step-down";
import { sdkOf } from "./transport";

const env = llmClientPerTest();
const asked: Asked = { jsonMode: "json_schema", format: true, budgetParam: "max_tokens", streamed: true };

/** The error the fake server answers a request with, as the SDK throws it. */
async function refusal(core: Core, message: string): Promise<unknown> {
  env.fake.enqueue({ kind: "status", status: 400, message });
  const call = prepareCall(core, viewOf(), { messages: ask("hi"), purpose: "t" });
  return sdkOf(core, call.cfg)
    .chat.completions.create({ model: call.cfg.model, messages: call.o.messages })
    .then(
      () => null,
      (e: unknown) => e,
    );
}

describe("step-down", () => {
  it("tells the refusals apart, and a plain bad request from all of them", async () => {
    const core = env.core();
    expect(refusalOf(await refusal(core, "response_format json_schema is not supported"), asked)).toBe("json-mode");
    expect(refusalOf(await refusal(core, "Unsupported parameter: 'max_tokens'; use 'max_completion_tokens' instead"), asked)).toBe(
      "budget-param",
    );
    expect(refusalOf(await refusal(core, "stream_options is not supported"), asked)).toBe("stream-usage");
    expect(refusalOf(await refusal(core, "streaming is not supported"), asked)).toBe("stream");
    expect(refusalOf(await refusal(core, "streaming is not supported"), { ...asked, streamed: false })).toBeNull();
    expect(refusalOf(await refusal(core, "context length exceeded"), asked)).toBeNull();
  });

  it("asks a role's own URL one JSON mode weaker from now on, and the budget under max_completion_tokens", async () => {
    vi.stubEnv("PAL_ASSISTANT_JSON_MODE", "json_schema");
    const core = env.core();
    const call = prepareCall(core, viewOf(), { messages: ask("hi"), schema: Req, purpose: "t" });
    const first = firstJsonMode(core, call);
    expect(first).toBe("json_schema");
    const e = await refusal(core, "response_format is not supported");
    const now = stepDown(core, call, "json-mode", e, { ...asked, jsonMode: first });
    expect(now).toBe("json_object");
    expect(firstJsonMode(core, prepareCall(core, viewOf(), { messages: ask("other"), schema: Req, purpose: "t" }))).toBe(now);
    expect(core.jsonModeRefused.has(call.endpointKey)).toBe(true);
    expect(budgetParamOf(core, call)).toBe("max_tokens");
    stepDown(core, call, "budget-param", e, asked);
    expect(budgetParamOf(core, call)).toBe("max_completion_tokens");
    stepDown(core, call, "stream", e, asked);
    expect(core.noStream.has(call.endpointKey)).toBe(true);
  });

  it("asks a call without a schema with no JSON mode at all", () => {
    const core = env.core();
    expect(firstJsonMode(core, prepareCall(core, viewOf(), { messages: ask("hi"), purpose: "t" }))).toBe("off");
  });
});
