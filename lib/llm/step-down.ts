/**
 * JSON mode and the other things an endpoint may refuse, each stepped down once and remembered: a
 * refused response_format asks one step weaker (json_schema → json_object → off; a defined endpoint
 * remembers it in the database, a role's own URL in this process), a refused max_tokens asks with
 * max_completion_tokens, a refused stream_options streams without usage, a refused stream (or an
 * endpoint that answers a stream with no events) is asked whole. Each refusal leaves a "retry" row
 * saying so, and the call asks again at once.
 */
import { APIError } from "openai";
import type { JsonMode } from "@/db/schema";
import type { Core } from "./core";
import { recordJsonModeRefusal, weakerJsonMode } from "./endpoints";
import { JSON_MODE_REFUSED } from "./ledger";
import { isMaxTokensRefusal } from "./max-tokens";
import type { Call } from "./request";
import { describe, isJsonModeRefusal } from "./retry";
import { NotStreamedError } from "./stream";

/** How one request asked: what a refusal steps down from. */
export type Asked = { jsonMode: JsonMode; format: boolean; budgetParam: "max_tokens" | "max_completion_tokens"; streamed: boolean };

export type Refusal = "json-mode" | "budget-param" | "stream-usage" | "stream";

const fallbackLabel = (m: JsonMode) => (m === "off" ? "plain replies" : m);

/**
 * JSON mode (response_format) when the configuration asks for it and the endpoint has not refused it:
 * a defined endpoint's refusal is already in cfg.jsonMode, a role's own URL's is in this process.
 */
export function firstJsonMode(core: Core, call: Call<unknown>): JsonMode {
  if (!call.o.schema) return "off";
  return call.cfg.endpoint ? call.cfg.jsonMode : (core.jsonModeNow.get(call.endpointKey) ?? call.cfg.jsonMode);
}

/** The name the output budget is sent under. */
export function budgetParamOf(core: Core, call: Call<unknown>): Asked["budgetParam"] {
  return "max_completion_tokens" in call.params || core.completionTokensParam.has(call.endpointKey)
    ? "max_completion_tokens"
    : "max_tokens";
}

const STREAM_REFUSAL = /\bstream(ing|_options)?\b/i;

/** Which refusal a failed try was, if one. */
export function refusalOf(e: unknown, asked: Asked): Refusal | null {
  if (asked.format && isJsonModeRefusal(e)) return "json-mode";
  if (asked.budgetParam === "max_tokens" && isMaxTokensRefusal(describe(e))) return "budget-param";
  if (!asked.streamed) return null;
  if (e instanceof NotStreamedError) return "stream";
  if (!(e instanceof APIError) || (e.status !== 400 && e.status !== 422) || !STREAM_REFUSAL.test(e.message)) return null;
  return /stream_options|include_usage/i.test(e.message) ? "stream-usage" : "stream";
}

/** The ledger note of a refusal. */
export function refusalNote(call: Call<unknown>, kind: Refusal, e: unknown, asked: Asked): string {
  const { cfg } = call;
  switch (kind) {
    case "json-mode":
      return `${JSON_MODE_REFUSED} (${asked.jsonMode}: ${describe(e)}); ${cfg.baseURL} ${cfg.model} falls back to ${fallbackLabel(weakerJsonMode(asked.jsonMode))}`;
    case "budget-param":
      return `the endpoint wants max_completion_tokens (${describe(e)}); asked again with it`;
    case "stream-usage":
      return `the endpoint refused stream_options (${describe(e)}); streamed without it from now on`;
    case "stream":
      return `the endpoint does not stream (${describe(e)}); asked without streaming from now on`;
  }
}

/** Remembers a refused stream at once, so the very next try (a transport retry) is sent the other way. */
export function noteStreamRefusal(core: Core, call: Call<unknown>, kind: Refusal): void {
  if (kind === "stream") core.noStream.add(call.endpointKey);
  if (kind === "stream-usage") core.noStreamUsage.add(call.endpointKey);
}

/** Steps down from a refusal for this and every later call; the JSON mode to ask with now. */
export function stepDown(core: Core, call: Call<unknown>, kind: Refusal, e: unknown, asked: Asked): JsonMode {
  if (kind === "budget-param") core.completionTokensParam.add(call.endpointKey);
  else if (kind === "json-mode") {
    if (call.cfg.endpoint) {
      const now = recordJsonModeRefusal(core.db, call.cfg.endpoint.id, asked.jsonMode, describe(e));
      core.configs.clear(); // the configurations on this endpoint now carry the weaker mode
      return now;
    }
    core.jsonModeRefused.set(call.endpointKey, describe(e));
    const now = weakerJsonMode(asked.jsonMode);
    core.jsonModeNow.set(call.endpointKey, now);
    return now;
  } else noteStreamRefusal(core, call, kind);
  return asked.jsonMode;
}
