/**
 * The `fetch` the model client's SDK instances use: node:http(s) with keep-alive sockets for the plain
 * JSON requests of chat and embedding calls, the global fetch for everything else (multipart uploads
 * of the Batch API, streamed bodies).
 *
 * Why: the global fetch (undici) spends about half a millisecond of CPU per request on Request,
 * Headers and web-stream objects; at 64 calls in flight against a 50 ms endpoint that alone keeps the
 * event loop busy (bench/endpoint-throughput.bench.ts: the bare SDK reached under half of 1,280
 * calls/s). node:http does the same exchange for about a third of that.
 *
 * The SDK sees what the global fetch would give it: a Response with the status, headers and body, a
 * rejection carrying the system error (ENOTFOUND, ECONNREFUSED, ECONNRESET, certificate codes) as
 * `cause`, so diagnose.ts names it, and an AbortError when its timeout aborts the request. A
 * connection dropped mid-body rejects the fetch (the whole body is read before it resolves, so the
 * SDK's timeout bounds the whole exchange, body included: a reply trickling a byte a second times out),
 * except for a streamed reply (text/event-stream), handed over as it arrives and bounded by stream.ts's
 * idle timeout and overall cap. The global fetch's replies are read in full before they are handed over.
 *
 * Redirects are never followed (issue 30.8): a model endpoint has no reason to send the request, its
 * key and its prompts elsewhere (a redirect to http://169.254.169.254/ reads a cloud's instance
 * secrets). A redirect is handed to the SDK as an error reply naming the status and the target, so
 * the ledger says why the call failed and the call is not retried.
 */
import http from "node:http";
import https from "node:https";
import { Readable } from "node:stream";
import { maskUrl } from "./base-url";
import { BufferedResponse, ReplyHeaders } from "./http-response";
import { decoded, readCapped, replyLimit, tooLarge } from "./reply-limit";

/**
 * Keep-alive sockets shared by every endpoint of the process; the per-role queues bound how many are in
 * use. A socket idle for 4 s is closed: servers commonly drop idle connections after 5 s (uvicorn, which
 * vLLM runs on; Node), and one reused just as the server closes it fails (a transport retry, recorded).
 * The timeout never touches a request waiting for its answer (Node only emits an event for it).
 */
const IDLE_MS = 4000;
const agents = {
  "http:": new http.Agent({ keepAlive: true, timeout: IDLE_MS }),
  "https:": new https.Agent({ keepAlive: true, timeout: IDLE_MS }),
};

/**
 * Requests that say `connection: close` (a streamed chat request, stream.ts) go on a connection of their
 * own that is never pooled (issue 40.8). llama.cpp's server closes the connection after a streamed reply
 * without answering `Connection: close`; Node's agent then pooled the socket, the next request was
 * written into it and died with ECONNRESET, and the ledger got a paid-looking "retry" row (9 rows for 6
 * requests) for a request the server never read. Node keeps a socket whenever the reply does not say
 * close, whatever the request said; an agent without keep-alive destroys it when the reply ends.
 */
const unpooled = {
  "http:": new http.Agent({ keepAlive: false }),
  "https:": new https.Agent({ keepAlive: false }),
};

function abortError(signal: AbortSignal): unknown {
  return signal.reason instanceof Error ? signal.reason : new DOMException("This operation was aborted", "AbortError");
}

/** A connection error shaped like the global fetch's: TypeError("fetch failed") with the system error as cause. */
function fetchFailed(cause: Error): TypeError {
  return new TypeError("fetch failed", { cause });
}

const midBody = () => fetchFailed(Object.assign(new Error("terminated: the connection closed mid-body"), { code: "ECONNRESET" }));

type Target = { protocol: "http:" | "https:"; hostname: string; port: string; path: string; auth?: string };
const targets = new Map<string, Target | null>();

/**
 * The request options of a URL, as node:http would derive them from it, kept by URL: a client sends
 * to a handful of URLs, and parsing each request's anew showed up at many requests a second.
 */
function target(url: string): Target | null {
  let t = targets.get(url);
  if (t !== undefined) return t;
  const u = new URL(url);
  t =
    u.protocol === "http:" || u.protocol === "https:"
      ? {
          protocol: u.protocol,
          // An IPv6 literal without its brackets, as node:http wants it.
          hostname: u.hostname.startsWith("[") ? u.hostname.slice(1, -1) : u.hostname,
          port: u.port,
          path: `${u.pathname}${u.search}`,
          ...(u.username || u.password ? { auth: `${decodeURIComponent(u.username)}:${decodeURIComponent(u.password)}` } : {}),
        }
      : null;
  if (targets.size >= 256) targets.clear(); // URLs with query strings vary; never grow without bound
  targets.set(url, t);
  return t;
}

const isEventStream = (res: http.IncomingMessage) => /^text\/event-stream\b/i.test(res.headers["content-type"] ?? "");

/** A server-sent-events reply as a Response whose body streams from the socket; aborting the signal ends it. */
function streamedResponse(res: http.IncomingMessage, status: number, signal: AbortSignal | null, destroy: () => void): Response {
  const onAbort = () => {
    res.destroy(abortError(signal!) as Error);
    destroy();
  };
  signal?.addEventListener("abort", onAbort, { once: true });
  res.once("close", () => signal?.removeEventListener("abort", onAbort));
  const body = Readable.toWeb(res) as ReadableStream<Uint8Array>;
  const headers = new ReplyHeaders(res.rawHeaders) as unknown as Headers;
  const response = new Response(body, { status, statusText: res.statusMessage });
  Object.defineProperty(response, "headers", { value: headers });
  return response;
}

/** The reply standing for a redirect that was not followed: an error the SDK reports with its status. */
function redirectRefused(status: number, location: string, from: string): Response {
  let to = location;
  try {
    to = new URL(location, from).href;
  } catch {
    // not a URL: named as it came
  }
  const message = `the endpoint answered with a redirect (HTTP ${status}) to ${maskUrl(to).slice(0, 200)}; model calls follow no redirects (the key and prompts would go to another address): set the base URL to the address that answers`;
  const body = Buffer.from(JSON.stringify({ error: { message, type: "redirect_refused", code: "redirect_refused" } }));
  return new BufferedResponse(body, { status, headers: new ReplyHeaders(["content-type", "application/json", "location", to]) });
}

/**
 * The global fetch for what node:http does not send here (multipart uploads, other bodies): redirects
 * not followed, and the body read in full before the reply is handed over, under the caller's signal.
 */
async function wholeFetch(input: Parameters<typeof fetch>[0], init: Parameters<typeof fetch>[1]): Promise<Response> {
  const res = await fetch(input, { ...init, redirect: "manual" });
  const location = res.headers.get("location");
  const from = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
  if (res.status >= 300 && res.status < 400 && location) {
    await res.body?.cancel().catch(() => undefined);
    return redirectRefused(res.status, location, from);
  }
  const payload = res.status === 204 || res.status === 304 ? null : await readCapped(res.body, replyLimit(init?.method));
  const raw: string[] = [];
  // The body is decoded already (the global fetch decompresses): its encoding and length no longer apply.
  res.headers.forEach((v, k) => void (/^(content-encoding|content-length)$/i.test(k) ? null : raw.push(k, v)));
  const headers = new ReplyHeaders(raw);
  return new BufferedResponse(payload, { status: res.status, statusText: res.statusText, headers });
}

/** The request's headers as node:http takes them. The SDK passes a Headers object: read as it is rather than copied first. */
function requestHeaders(given: HeadersInit | undefined, body: string | null | undefined): Record<string, string> {
  const headers: Record<string, string> = {};
  (given instanceof Headers ? given : new Headers(given)).forEach((v, k) => (headers[k] = v));
  if (body != null) headers["content-length"] = String(Buffer.byteLength(body));
  return headers;
}

export const keepAliveFetch: typeof fetch = (input, init) => {
  const body = init?.body;
  const url = typeof input === "string" ? input : input instanceof URL ? input.href : null;
  if (url === null || (body != null && typeof body !== "string")) return wholeFetch(input, init);
  const parsed = target(url);
  if (!parsed) return wholeFetch(input, init);
  const headers = requestHeaders(init?.headers, body);
  const agent = (/\bclose\b/i.test(headers.connection ?? "") ? unpooled : agents)[parsed.protocol];
  const limit = replyLimit(init?.method);
  const signal = init?.signal ?? null;
  if (signal?.aborted) return Promise.reject(abortError(signal));

  return new Promise<Response>((resolve, reject) => {
    let settled = false;
    const fail = (e: unknown) => {
      if (settled) return;
      settled = true;
      signal?.removeEventListener("abort", onAbort);
      reject(e);
    };
    const onAbort = () => {
      fail(abortError(signal!));
      req.destroy();
    };
    const request = parsed.protocol === "https:" ? https.request : http.request;
    const req = request({ ...parsed, method: init?.method ?? "GET", headers, agent }, (res) => onResponse(res));
    const onResponse = (res: http.IncomingMessage) => {
      const status = res.statusCode ?? 0;
      if (status >= 300 && status < 400 && res.headers.location) {
        res.resume();
        settled = true;
        signal?.removeEventListener("abort", onAbort);
        resolve(redirectRefused(status, res.headers.location, url));
        return;
      }
      if (isEventStream(res)) {
        // A streamed reply (stream.ts) is handed over as it arrives; the abort (an idle timeout) still ends it.
        // Its socket is never pooled, even when the request did not say close (a server streaming unasked):
        // whoever reads the stream may stop before its end, and a server may close after it unannounced.
        (req as { shouldKeepAlive?: boolean }).shouldKeepAlive = false;
        settled = true;
        resolve(streamedResponse(res, status, signal, () => req.destroy()));
        return;
      }
      const chunks: Buffer[] = [];
      let bytes = 0;
      res.on("data", (c: Buffer) => {
        bytes += c.length;
        chunks.push(c);
        // A body past the limit is not read on: the connection is dropped (never pooled) and the fetch fails.
        if (bytes > limit) {
          fail(fetchFailed(tooLarge(limit, "")));
          req.destroy();
        }
      });
      res.on("aborted", () => fail(midBody()));
      res.on("error", (e) => fail(fetchFailed(e)));
      res.on("end", () => {
        if (settled) return;
        if (!res.complete) return fail(midBody());
        try {
          // 204/304 may carry no body in a Response.
          const payload = status === 204 || status === 304 ? null : decoded(Buffer.concat(chunks), res.headers["content-encoding"], limit);
          const headers = new ReplyHeaders(res.rawHeaders);
          const response = new BufferedResponse(payload, { status, statusText: res.statusMessage, headers });
          settled = true;
          signal?.removeEventListener("abort", onAbort);
          resolve(response);
        } catch (e) {
          fail(fetchFailed(e as Error));
        }
      });
    };
    // No resend here, not even on a socket the server had just closed: a request the server may have
    // received is retried by the client, which records the failed try in the ledger (retry.ts).
    req.on("error", (e) => fail(fetchFailed(e)));
    signal?.addEventListener("abort", onAbort, { once: true });
    req.end(body ?? undefined);
  });
};
