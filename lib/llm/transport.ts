/**
 * The transport: the `openai` SDK over keep-alive sockets (http-fetch.ts), one instance per endpoint
 * and key. A chat request is streamed where the endpoint streams (stream.ts) and sent whole where it
 * refused streaming (remembered per endpoint, like the JSON-mode step-down); either way the reply
 * comes back as one Completion. Retries are the pipeline's (one ledger row per try): the SDK makes
 * exactly one.
 */
import OpenAI from "openai";
import type { ModelConfig } from "./config";
import type { Core } from "./core";
import { keepAliveFetch } from "./http-fetch";
import { offlineFetch } from "./offline-fetch";
import { readUsage, type Completion } from "./reply";
import { streamCompletion, type Live } from "./stream";

export type ChatBody = OpenAI.Chat.Completions.ChatCompletionCreateParamsNonStreaming;

/** The SDK client of a configuration (one per endpoint, key and timeout: building one per call showed up in the experiments bench). */
export function sdkOf(core: Core, cfg: ModelConfig): OpenAI {
  const timeout = cfg.endpoint?.timeoutMs ?? core.opts.timeoutMs;
  const key = `${cfg.baseURL}\u0000${cfg.apiKey ?? ""}\u0000${timeout}`;
  let sdk = core.sdks.get(key);
  if (!sdk) {
    // keepAliveFetch: node:http with keep-alive sockets, a third of the global fetch's CPU per request (http-fetch.ts).
    // offline (a bundle's replay): nothing is sent; a request the cache cannot answer fails as "no bundled reply".
    const fetch = core.opts.offline ? offlineFetch : keepAliveFetch;
    sdk = new OpenAI({ apiKey: cfg.apiKey ?? "not-set", baseURL: cfg.baseURL, timeout, maxRetries: 0, fetch });
    core.sdks.set(key, sdk);
  }
  return sdk;
}

/** Whether this call's request is streamed: the client streams and the endpoint has not refused it. */
export function streams(core: Core, endpointKey: string, budget: number): boolean {
  return core.opts.stream && budget >= core.opts.streamMinTokens && !core.noStream.has(endpointKey);
}

/**
 * A 200 whose body is not a chat completion (a proxy's HTML error page, an empty body) is a transport
 * failure, retried and recorded as one, not a model reply to correct with a regeneration.
 */
function requireCompletion(r: OpenAI.Chat.Completions.ChatCompletion): OpenAI.Chat.Completions.ChatCompletion {
  if (typeof r !== "object" || r === null || !Array.isArray(r.choices))
    throw new Error(`the endpoint answered with something that is not a chat completion: ${JSON.stringify(r).slice(0, 80)}`);
  return r;
}

/** Reasoning models add their thinking beside the content (DeepSeek, vLLM: reasoning_content; some: reasoning). */
type ReasoningMessage = OpenAI.Chat.Completions.ChatCompletionMessage & { reasoning_content?: string | null; reasoning?: string | null };

function fromWhole(r: OpenAI.Chat.Completions.ChatCompletion): Completion {
  const choice = r.choices?.[0];
  const message = choice?.message as ReasoningMessage | undefined;
  return {
    content: message?.content ?? "",
    reasoning: message?.reasoning_content ?? message?.reasoning ?? null,
    finishReason: choice?.finish_reason ?? null,
    model: typeof r.model === "string" && r.model ? r.model : null,
    usage: readUsage(r.usage),
    rawUsage: r.usage,
  };
}

/** Sends one chat request and hands back its reply; `budget` (the output tokens asked) sets a stream's overall cap. */
export async function sendChat(
  core: Core,
  cfg: ModelConfig,
  endpointKey: string,
  body: ChatBody,
  budget: number,
  live: Live,
): Promise<Completion> {
  const sdk = sdkOf(core, cfg);
  if (!streams(core, endpointKey, budget)) {
    // Cut when the process stops waiting (tries.ts): the connection closes, and a server that checks
    // (llama.cpp) stops generating a reply no ledger row would count.
    const ac = new AbortController();
    live.cut = () => ac.abort();
    return fromWhole(requireCompletion(await sdk.chat.completions.create(body, { signal: ac.signal })));
  }
  const timeoutMs = cfg.endpoint?.timeoutMs ?? core.opts.timeoutMs;
  const r = await streamCompletion(
    sdk,
    body,
    {
      idleMs: Math.min(core.opts.streamIdleMs, timeoutMs),
      capMs: timeoutMs + budget * core.opts.streamMsPerToken,
      includeUsage: !core.noStreamUsage.has(endpointKey),
    },
    live,
  );
  if (!("whole" in r)) return r;
  core.noStream.add(endpointKey); // it answered whole: asked whole from now on
  return fromWhole(requireCompletion(r.whole as OpenAI.Chat.Completions.ChatCompletion));
}
