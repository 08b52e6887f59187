/**
 * TEST DOUBLE: a fake OpenAI-compatible HTTP server for tests only. It is never offered to users as
 * a model. The real `openai` client talks to it over real HTTP on 127.0.0.1.
 *
 * - Chat completions (`POST /v1/chat/completions`) answer from a script: queued replies, or a
 *   responder function that sees the request.
 * - Embeddings (`POST /v1/embeddings`) return deterministic vectors derived from the text.
 * - Faults can be injected per request: HTTP 429 (with Retry-After), 500, a hang (timeout),
 *   a dropped connection, a malformed body, or a reply whose content is not the expected JSON.
 * - Reasoning models: a reply may carry `reasoningContent` (sent as message.reasoning_content, as
 *   DeepSeek and vLLM do) and `reasoningTokens`; a `<think>…</think>` block is simply part of the content.
 * - JSON mode: `rejectJsonMode` answers any request with `response_format` (or only one type) with
 *   HTTP 400, like an endpoint that has none; `status` faults take an optional `message` (e.g. a context-length error).
 * - Streaming: `stream: true` is answered as server-sent events (one chunk per completion token, usage in a
 *   last chunk when asked), at `chunkMs` per chunk; a reply may stall midway (`stallAfterChunks`), and a
 *   server may refuse streaming or stream_options, or ignore `stream` (`streaming`).
 * - Every request is recorded for assertions; an optional fixed latency simulates a slow model.
 * - A real server's quirks: a reply cut off at max_tokens (`finishReason: "length"`), a served model
 *   other than the one asked (`servedModel`), embeddings as JSON arrays although base64 was asked
 *   (`ignoreBase64`), or the same vector for every text (`constantEmbedding`).
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { fakeBatchApi, type FakeBatchApi } from "./fake-openai-batch";
import crypto from "node:crypto";

export type ChatRequest = {
  model: string;
  messages: Array<{ role: string; content: unknown }>;
  temperature?: number;
  seed?: number;
  [k: string]: unknown;
};

export type Fault =
  | { kind: "status"; status: 400 | 401 | 403 | 404 | 429 | 500 | 502 | 503; retryAfterSeconds?: number; message?: string }
  | { kind: "hang" } // never answers (the client's timeout must fire)
  | { kind: "drop" } // destroys the socket before answering
  | { kind: "midbody" } // 200 and half of a JSON body, then the connection drops
  | { kind: "malformed" } // 200 with a truncated JSON body (complete HTTP response)
  | { kind: "html" }; // 200 with an HTML page instead of JSON (a proxy's error page)

/** A scripted reply: the assistant message content, or a fault. */
export type Reply =
  | string
  | {
      content: string;
      promptTokens?: number;
      completionTokens?: number;
      /** Reported as usage.prompt_tokens_details.cached_tokens / completion_tokens_details.reasoning_tokens. */
      cachedTokens?: number;
      reasoningTokens?: number;
      /** Sent as message.reasoning_content beside the content (DeepSeek-R1, vLLM reasoning parsers). */
      reasoningContent?: string;
      /** Extra latency for this reply only, in ms (e.g. to keep two identical calls in flight together). */
      delayMs?: number;
      /** "length": the reply ended at max_tokens (default "stop"). */
      finishReason?: "stop" | "length";
      /** Streamed replies: ms between two chunks (default: the server's chunkMs). */
      chunkMs?: number;
      /** Streamed replies: send this many completion chunks, then nothing more (the connection stays open). */
      stallAfterChunks?: number;
    }
  | Fault;

export type Responder = (req: ChatRequest, index: number) => Reply;

export type FakeOpenAIOptions = {
  /** Fixed latency added to every answer, in ms. */
  latencyMs?: number;
  /** Called for each chat request when the queue is empty. Default: echo the last user message. */
  respond?: Responder;
  /** Injected before the scripted reply: returns a fault for this request, or undefined. */
  fault?: (req: ChatRequest, index: number) => Fault | undefined;
  /** Embedding dimensions (default 16). */
  dimensions?: number;
  /**
   * Answer requests that set response_format with HTTP 400: every one (true: an endpoint without JSON
   * mode), or only those of one type ("json_schema": JSON mode but no structured outputs).
   */
  rejectJsonMode?: boolean | "json_object" | "json_schema";
  /** The model named in every reply, whatever was asked (a server serving one model under any name). */
  servedModel?: string;
  /** Embeddings: send JSON arrays even when base64 was asked for (a server that ignores encoding_format). */
  ignoreBase64?: boolean;
  /** Embeddings: every vector the same (a server that embeds nothing of the text). */
  constantEmbedding?: boolean;
  /** Embeddings: random values each time, the same text included (a server whose encoding garbles them). */
  corruptEmbedding?: boolean;
  /**
   * Streaming (`stream: true` is answered as server-sent events, one chunk per completion token, the usage
   * in a last chunk when stream_options.include_usage asks): refuse it with HTTP 400 ("stream": any
   * streamed request; "stream_options": one carrying stream_options), or ignore it and answer whole ("ignore").
   */
  streaming?: "stream" | "stream_options" | "ignore";
  /** Streamed replies: ms between two chunks (default 0). */
  chunkMs?: number;
  /**
   * Close the connection right after a streamed reply without a `Connection: close` header, as llama.cpp's
   * server does: a client that puts the socket back in its keep-alive pool sends its next request into it.
   */
  closeAfterStream?: boolean;
  /**
   * What every reply reports as `usage`, from the honest one (a hostile or broken server: negative,
   * fractional or absurd counts; undefined leaves the field out). The server's own `served` counts stay honest.
   */
  usage?: (honest: Record<string, unknown>, kind: "chat" | "embeddings", model: string) => unknown;
};

/** One request as the server saw it: when it came, and when its answer was fully written (never, for faults). */
export type LoggedRequest = {
  path: string;
  body: string;
  receivedAt: number;
  answeredAt: number | null;
  status: number | null;
  /** The injected fault's kind, if one was. */
  fault?: Fault["kind"];
};

export type FakeOpenAI = {
  /** Every request (chat and embeddings), in arrival order, with its timing. */
  log: LoggedRequest[];
  /** Base URL for the `openai` client, e.g. http://127.0.0.1:PORT/v1 */
  baseURL: string;
  /** Every chat request received (faulted ones included), in arrival order. */
  chatRequests: ChatRequest[];
  embeddingRequests: Array<{ model: string; input: string | string[] }>;
  /** Queue replies answered before `respond` is consulted. */
  enqueue: (...replies: Reply[]) => void;
  setResponder: (r: Responder) => void;
  setFault: (f: FakeOpenAIOptions["fault"]) => void;
  /** The Batch API (/v1/files, /v1/batches): its batches, hold and release. */
  batch: FakeBatchApi;
  /**
   * What the server generated and reported as usage, summed over every reply it finished sending (chat
   * and embeddings, a batch's lines included): what a complete ledger must hold.
   */
  served: { replies: number; promptTokens: number; completionTokens: number };
  close: () => Promise<void>;
};

function isFault(r: Reply): r is Fault {
  return typeof r === "object" && r !== null && "kind" in r;
}

/** A deterministic unit vector for a text: the same text always embeds the same way. */
export function fakeEmbedding(text: string, dimensions = 16): number[] {
  const v: number[] = [];
  for (let i = 0; v.length < dimensions; i++) {
    const h = crypto.createHash("sha256").update(`${i}:${text}`).digest();
    for (let j = 0; j + 4 <= h.length && v.length < dimensions; j += 4) v.push(h.readInt32LE(j) / 2 ** 31);
  }
  const norm = Math.hypot(...v) || 1;
  return v.map((x) => x / norm);
}

const approxTokens = (s: string) => Math.max(1, Math.ceil(s.length / 4));

export async function startFakeOpenAI(opts: FakeOpenAIOptions = {}): Promise<FakeOpenAI> {
  const reported = (honest: Record<string, unknown>, kind: "chat" | "embeddings", model: string) =>
    opts.usage ? opts.usage(honest, kind, model) : honest;
  const queue: Reply[] = [];
  const chatRequests: ChatRequest[] = [];
  const embeddingRequests: FakeOpenAI["embeddingRequests"] = [];
  let respond: Responder =
    opts.respond ??
    ((req) => {
      const last = [...req.messages].reverse().find((m) => m.role === "user");
      return `echo: ${typeof last?.content === "string" ? last.content : JSON.stringify(last?.content ?? "")}`;
    });
  let fault = opts.fault;
  const hanging = new Set<http.ServerResponse>();
  const log: LoggedRequest[] = [];
  const served = { replies: 0, promptTokens: 0, completionTokens: 0 };
  // Counted once the reply is written in full: a client that gave up before then got nothing, as from a real server.
  const serve = (res: http.ServerResponse, prompt: number, completion: number) =>
    res.on("finish", () => {
      served.replies++;
      served.promptTokens += prompt;
      served.completionTokens += completion;
    });

  /** A reply as server-sent events: one chunk per completion token, counted as served as each is written. */
  const streamReply = async (
    res: http.ServerResponse,
    r: {
      json: ChatRequest;
      reply: Exclude<Reply, Fault>;
      content: string;
      promptTokens: number;
      completionTokens: number;
      usage: Record<string, unknown> | null;
      index: number;
    },
  ) => {
    const extra: Exclude<Reply, Fault | string> | { [k: string]: undefined } = typeof r.reply === "string" ? {} : r.reply;
    const gap = extra.chunkMs ?? opts.chunkMs ?? 0;
    const model = opts.servedModel ?? r.json.model;
    const event = (choices: unknown[], more: Record<string, unknown> = {}) =>
      `data: ${JSON.stringify({ id: `chatcmpl-fake-${r.index}`, object: "chat.completion.chunk", created: 0, model, choices, ...more })}\n\n`;
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
    res.write(event([{ index: 0, delta: { role: "assistant", content: null }, finish_reason: null }]));
    if (extra.reasoningContent !== undefined)
      res.write(event([{ index: 0, delta: { reasoning_content: extra.reasoningContent }, finish_reason: null }]));
    const n = Math.max(1, r.completionTokens);
    for (let i = 0; i < n; i++) {
      if (extra.stallAfterChunks !== undefined && i >= extra.stallAfterChunks) return void hanging.add(res);
      if (gap) await new Promise((ok) => setTimeout(ok, gap));
      if (res.destroyed) return;
      const piece = r.content.slice(Math.floor((i * r.content.length) / n), Math.floor(((i + 1) * r.content.length) / n));
      res.write(event([{ index: 0, delta: { content: piece }, finish_reason: null }]));
      served.completionTokens++;
    }
    res.write(event([{ index: 0, delta: {}, finish_reason: extra.finishReason ?? "stop" }]));
    if (r.usage) res.write(event([], { usage: r.usage }));
    res.on("finish", () => {
      served.replies++;
      served.promptTokens += r.promptTokens;
    });
    const socket = res.socket;
    res.end("data: [DONE]\n\n", () => void (opts.closeAfterStream && setImmediate(() => socket?.destroy())));
  };

  const batchApi = fakeBatchApi(() => `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/chat/completions`);
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", async () => {
      const raw = Buffer.concat(chunks);
      if (/\/(files|batches)(\/|$)/.test(req.url ?? "") && (await batchApi.handle(req, res, raw))) return;
      const body = raw.toString("utf8");
      const entry: LoggedRequest = { path: req.url ?? "", body, receivedAt: Date.now(), answeredAt: null, status: null };
      if (req.method === "POST") log.push(entry);
      res.on("finish", () => {
        entry.answeredAt = Date.now();
        entry.status = res.statusCode;
      });
      const json = (() => {
        try {
          return JSON.parse(body || "{}");
        } catch {
          return null;
        }
      })();
      if (opts.latencyMs) await new Promise((r) => setTimeout(r, opts.latencyMs));
      const send = (status: number, payload: unknown, headers: Record<string, string> = {}) => {
        res.writeHead(status, { "content-type": "application/json", ...headers });
        res.end(typeof payload === "string" ? payload : JSON.stringify(payload));
      };
      if (!json) return send(400, { error: { message: "invalid JSON body", type: "invalid_request_error" } });

      if (req.method === "POST" && req.url?.endsWith("/chat/completions")) {
        const index = chatRequests.length;
        chatRequests.push(json as ChatRequest);
        const format = (json as ChatRequest).response_format as { type?: string } | undefined;
        if (format !== undefined && (opts.rejectJsonMode === true || opts.rejectJsonMode === format.type)) {
          return send(400, {
            error: {
              message: `response_format ${format.type} is not supported by this model`,
              type: "invalid_request_error",
              param: "response_format",
            },
          });
        }
        const streamed = (json as ChatRequest).stream === true && opts.streaming !== "ignore";
        if (streamed && (opts.streaming === "stream" || (opts.streaming === "stream_options" && "stream_options" in json))) {
          const what = opts.streaming === "stream" ? "streaming is" : "stream_options is";
          return send(400, { error: { message: `${what} not supported by this server`, type: "invalid_request_error" } });
        }
        const reply = fault?.(json as ChatRequest, index) ?? queue.shift() ?? respond(json as ChatRequest, index);
        if (isFault(reply)) {
          entry.fault = reply.kind;
          switch (reply.kind) {
            case "status":
              return send(
                reply.status,
                {
                  error: {
                    message: reply.message ?? `injected ${reply.status}`,
                    type: reply.status === 429 ? "rate_limit_error" : reply.status < 500 ? "invalid_request_error" : "server_error",
                  },
                },
                reply.retryAfterSeconds !== undefined ? { "retry-after": String(reply.retryAfterSeconds) } : {},
              );
            case "hang":
              hanging.add(res);
              return;
            case "drop":
              return req.socket.destroy();
            case "midbody": {
              const full = JSON.stringify({
                id: "chatcmpl-cut",
                choices: [{ index: 0, message: { role: "assistant", content: "x".repeat(200) } }],
              });
              res.writeHead(200, { "content-type": "application/json", "content-length": String(full.length) });
              res.write(full.slice(0, full.length >> 1));
              return void setTimeout(() => req.socket.destroy(), 20);
            }
            case "malformed":
              return send(200, '{"id": "chatcmpl-broken", "choices": [');
            case "html":
              res.writeHead(200, { "content-type": "text/html" });
              return res.end("<html><body><h1>502 Bad Gateway</h1></body></html>");
          }
        }
        const content = typeof reply === "string" ? reply : reply.content;
        if (typeof reply !== "string" && reply.delayMs) await new Promise((r) => setTimeout(r, reply.delayMs));
        const promptText = (json as ChatRequest).messages.map((m) => (typeof m.content === "string" ? m.content : "")).join("\n");
        const promptTokens = typeof reply === "string" ? approxTokens(promptText) : (reply.promptTokens ?? approxTokens(promptText));
        const completionTokens = typeof reply === "string" ? approxTokens(content) : (reply.completionTokens ?? approxTokens(content));
        const usage = {
          prompt_tokens: promptTokens,
          completion_tokens: completionTokens,
          total_tokens: promptTokens + completionTokens,
          ...(typeof reply !== "string" && reply.cachedTokens !== undefined
            ? { prompt_tokens_details: { cached_tokens: reply.cachedTokens } }
            : {}),
          ...(typeof reply !== "string" && reply.reasoningTokens !== undefined
            ? { completion_tokens_details: { reasoning_tokens: reply.reasoningTokens } }
            : {}),
        };
        if (streamed) {
          const withUsage = !!(json as { stream_options?: { include_usage?: boolean } }).stream_options?.include_usage;
          return streamReply(res, {
            json: json as ChatRequest,
            reply,
            content,
            promptTokens,
            completionTokens,
            usage: withUsage
              ? ((reported(usage, "chat", (json as ChatRequest).model) as Record<string, unknown> | undefined) ?? null)
              : null,
            index,
          });
        }
        serve(res, promptTokens, completionTokens);
        return send(200, {
          id: `chatcmpl-fake-${index}`,
          object: "chat.completion",
          created: Math.floor(Date.now() / 1000),
          model: opts.servedModel ?? (json as ChatRequest).model,
          choices: [
            {
              index: 0,
              message: {
                role: "assistant",
                content,
                ...(typeof reply !== "string" && reply.reasoningContent !== undefined ? { reasoning_content: reply.reasoningContent } : {}),
              },
              finish_reason: typeof reply !== "string" && reply.finishReason ? reply.finishReason : "stop",
              logprobs: null,
            },
          ],
          usage: reported(usage, "chat", (json as ChatRequest).model),
        });
      }

      if (req.method === "POST" && req.url?.endsWith("/embeddings")) {
        const input = (json as { input: string | string[] }).input;
        embeddingRequests.push({ model: json.model, input });
        const texts = Array.isArray(input) ? input : [input];
        // The openai SDK asks for base64-packed float32 by default; honour it like the real API.
        const base64 = (json as { encoding_format?: string }).encoding_format === "base64" && !opts.ignoreBase64;
        const encode = (v: number[]) => (base64 ? Buffer.from(new Float32Array(v).buffer).toString("base64") : v);
        const promptTokens = texts.reduce((n, t) => n + approxTokens(String(t)), 0);
        serve(res, promptTokens, 0);
        return send(200, {
          object: "list",
          model: opts.servedModel ?? json.model,
          data: texts.map((t, i) => ({
            object: "embedding",
            index: i,
            embedding: encode(
              fakeEmbedding(opts.constantEmbedding ? "" : opts.corruptEmbedding ? crypto.randomUUID() : String(t), opts.dimensions ?? 16),
            ),
          })),
          usage: reported({ prompt_tokens: promptTokens, total_tokens: 0 }, "embeddings", json.model),
        });
      }

      if (req.method === "GET" && req.url?.endsWith("/models")) {
        return send(200, { object: "list", data: [{ id: "fake-model", object: "model", owned_by: "test-double" }] });
      }
      send(404, { error: { message: `no route ${req.method} ${req.url}` } });
    });
  });

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    log,
    chatRequests,
    embeddingRequests,
    enqueue: (...r) => void queue.push(...r),
    setResponder: (r) => void (respond = r),
    setFault: (f) => void (fault = f),
    batch: batchApi,
    served,
    close: () =>
      new Promise<void>((resolve) => {
        for (const r of hanging) r.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
