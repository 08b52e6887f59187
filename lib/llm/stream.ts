/**
 * A chat reply streamed from the endpoint (`stream: true`, with `stream_options.include_usage` where the
 * endpoint takes it). A reply that keeps arriving is not cut by the request timeout: the endpoint must
 * send its headers within the request timeout (the SDK's), then each chunk within `idleMs` of the last,
 * and the whole reply within `capMs` (derived from the output budget, transport.ts). A reply cut midway
 * (either limit, a dropped connection) still says what was generated: the error carries the usage of
 * the last chunk when one came, else the completion chunks counted, marked as an estimate.
 */
import OpenAI from "openai";
import { Stream } from "openai/streaming";
import { ZERO_USAGE, type Usage } from "./client-types";
import { readUsage, type Completion, type RawUsage } from "./reply";

export type StreamLimits = { idleMs: number; capMs: number; includeUsage: boolean };

/** What a stream delivered before it ended or was cut. */
export type Streamed = { usage: Usage; estimated: boolean; chunks: number };

/** The stream went quiet for longer than the idle timeout, or ran past its cap: a timeout (retry.ts isTimeout). */
export class StreamTimeoutError extends OpenAI.APIConnectionTimeoutError {
  constructor(
    readonly streamed: Streamed,
    why: string,
  ) {
    super({ message: `stream timed out: ${why}` });
  }
}

/** The endpoint answered a streamed request with no stream events at all (it does not stream). */
export class NotStreamedError extends Error {
  constructor() {
    super("the endpoint sent no stream events");
  }
}

/** What a failed try streamed before it failed, if anything (its ledger row records these tokens). */
export function streamedOf(e: unknown): Streamed | null {
  const s = (e as { streamed?: Streamed } | null)?.streamed;
  return s && (s.chunks > 0 || s.usage.completionTokens > 0) ? s : null;
}

type Delta = { content?: string | null; reasoning_content?: string | null; reasoning?: string | null };
type Chunk = { model?: string; usage?: RawUsage | null; choices?: Array<{ delta?: Delta; finish_reason?: string | null }> };

/** The chunks of one reply, gathered into a completion. */
export class StreamAccumulator {
  private content: string[] = [];
  private reasoning: string[] = [];
  private finish: string | null = null;
  private model: string | null = null;
  private usage: RawUsage | null = null;
  /** Chunks that carried generated text (one token each on llama.cpp and OpenAI): the estimate when no usage came. */
  chunks = 0;
  events = 0;

  add(chunk: Chunk): void {
    this.events++;
    if (chunk.model) this.model = chunk.model;
    if (chunk.usage) this.usage = chunk.usage;
    const choice = chunk.choices?.[0];
    if (!choice) return;
    const d = choice.delta;
    const thought = d?.reasoning_content ?? d?.reasoning;
    if (typeof d?.content === "string" || typeof thought === "string") this.chunks++;
    if (d?.content) this.content.push(d.content);
    if (thought) this.reasoning.push(thought);
    if (choice.finish_reason) this.finish = choice.finish_reason;
  }

  /** What was streamed so far: the reported usage, else the counted chunks (an estimate). */
  streamed(): Streamed {
    if (this.usage) return { usage: readUsage(this.usage), estimated: false, chunks: this.chunks };
    return { usage: { ...ZERO_USAGE, completionTokens: this.chunks }, estimated: true, chunks: this.chunks };
  }

  /** The finished reply; throws when the stream ended before its finish_reason (cut midway). */
  complete(): Completion {
    if (this.events === 0) throw new NotStreamedError();
    if (this.finish === null)
      throw Object.assign(new Error("the stream ended before the reply was complete"), { streamed: this.streamed() });
    const s = this.streamed();
    return {
      content: this.content.join(""),
      reasoning: this.reasoning.length ? this.reasoning.join("") : null,
      finishReason: this.finish,
      model: this.model,
      usage: s.usage,
      rawUsage: this.usage,
      estimated: s.estimated,
    };
  }
}

/**
 * Progress of the try in flight, read when the process stops waiting for it (tries.ts): what it has
 * streamed, and the cut that ends it there (the connection closes, so the server stops generating what
 * no ledger row would count: llama.cpp cancels a request whose connection closed).
 */
export type Live = { streamed: (() => Streamed) | null; cut?: () => void };

export async function streamCompletion(
  sdk: OpenAI,
  body: OpenAI.Chat.Completions.ChatCompletionCreateParamsNonStreaming,
  limits: StreamLimits,
  live: Live,
): Promise<Completion | { whole: unknown }> {
  const ac = new AbortController();
  const acc = new StreamAccumulator();
  live.streamed = () => acc.streamed();
  let cut: string | null = null;
  let last = Date.now();
  const stop = (why: string) => {
    cut = why;
    ac.abort();
  };
  live.cut = () => stop("the process stopped waiting for it");
  // One timer for the cap and one for the pauses, re-armed only when it fires (not per chunk).
  const cap = setTimeout(() => stop(`still streaming after ${limits.capMs} ms`), limits.capMs);
  let idle: ReturnType<typeof setTimeout> | undefined;
  const watch = (ms: number) => {
    idle = setTimeout(() => {
      const quiet = Date.now() - last;
      if (quiet >= limits.idleMs) stop(`no chunk for ${quiet} ms`);
      else watch(limits.idleMs - quiet);
    }, ms);
  };
  try {
    // The connection is not kept for another request: llama.cpp's server closes it after a streamed reply
    // without saying so, and the next request sent on it failed at once ("socket hang up", a retry each).
    // A streamed reply is long; one more handshake per reply costs nothing next to it. The header alone
    // did not do it: Node pools a socket unless the reply says close, so http-fetch.ts sends a request
    // that says close on a connection of its own (issue 40.8).
    const response = await sdk.chat.completions
      .create(
        { ...body, stream: true, ...(limits.includeUsage ? { stream_options: { include_usage: true } } : {}) },
        { signal: ac.signal, headers: { connection: "close" } },
      )
      .asResponse();
    // A server that ignores `stream` answers whole: that answer is the reply (transport.ts remembers it).
    if (!/^text\/event-stream\b/i.test(response.headers.get("content-type") ?? "")) return { whole: await response.json() };
    const stream = Stream.fromSSEResponse<Chunk>(response, ac);
    last = Date.now();
    watch(limits.idleMs);
    for await (const chunk of stream) {
      last = Date.now();
      acc.add(chunk);
    }
  } catch (e) {
    if (cut !== null) throw new StreamTimeoutError(acc.streamed(), cut);
    if (acc.events > 0 && typeof e === "object" && e !== null) Object.assign(e, { streamed: acc.streamed() });
    throw e;
  } finally {
    clearTimeout(cap);
    clearTimeout(idle);
  }
  // The SDK ends an aborted stream quietly: a cut is known by its reason.
  if (cut !== null) throw new StreamTimeoutError(acc.streamed(), cut);
  return acc.complete();
}
