/**
 * Transport retries of the model client: which failures are worth another try, how long to wait
 * (exponential backoff with jitter, or the server's Retry-After), and a short description of a
 * failure for the ledger. The client records each failed try through `onFailedTry`.
 */
import { redactSecrets } from "./redact";
import { causeCode } from "./diagnose";
import OpenAI, { APIError } from "openai";
import pRetry from "p-retry";
import { RunPausedError } from "./spend-guard";

export type RetryOptions = {
  /** Retries after the first try. */
  retries: number;
  /** First backoff delay, doubled per retry, with jitter. */
  baseMs: number;
  /** Longest backoff or Retry-After honoured. */
  maxMs: number;
  /**
   * Of the retries, how many may follow a timeout (default: all). A request that ran the whole timeout
   * (a model looping, a server overloaded) most likely will again: trying it seven times kept a call
   * busy for 20 minutes. Each try is recorded, so the ones made are visible in the ledger.
   */
  timeoutRetries?: number;
};

/** The request ran into the client's timeout. */
export function isTimeout(e: unknown): boolean {
  return e instanceof OpenAI.APIConnectionTimeoutError;
}

/** HTTP statuses worth another try: rate limits, timeouts, conflicts and server errors. */
export function isRetryable(e: unknown): boolean {
  if (e instanceof APIError && e.status !== undefined) return e.status === 408 || e.status === 409 || e.status === 429 || e.status >= 500;
  return true; // connection dropped, timed out, or a garbled body
}

/**
 * A refusal that the same request will always get: a bad request (context too long, invalid
 * parameter), a missing or wrong key, no access, no such model.
 */
export function isDeterministic(e: unknown): boolean {
  return e instanceof APIError && (e.status === 400 || e.status === 401 || e.status === 403 || e.status === 404 || e.status === 422);
}

/**
 * What servers say when they refuse a response_format or its schema (docs/endpoints.md, "Local models"):
 * OpenAI ("Invalid schema for response_format ...", "'response_format' of type 'json_schema' is not supported
 * with this model", param "response_format"); llama.cpp's llama-server ("JSON schema error at #/...: schema must be
 * an object", "response_format type must be one of ...", older builds "JSON schema conversion failed");
 * vLLM ("The provided JSON schema contains features not supported by xgrammar.", "Failed to transform json schema
 * into a grammar: ...", "Grammar error: ...", guided decoding); TGI ("grammar is not supported").
 */
const JSON_MODE_REFUSAL =
  /response_format|json_object|json_schema|json mode|json schema|schema must be|xgrammar|guided[_ ]decoding|structured output|grammar (error|is not supported)|into a grammar|unrecognized schema/i;

/** A 400 (or 422) about the response_format parameter or its schema: the endpoint cannot serve this JSON mode. */
export function isJsonModeRefusal(e: unknown): boolean {
  if (!(e instanceof APIError) || (e.status !== 400 && e.status !== 422)) return false;
  return (e as { param?: unknown }).param === "response_format" || JSON_MODE_REFUSAL.test(e.message);
}

/** A failure in one line for the ledger and error messages, with any API key in it masked (see redact.ts). */
export function describe(e: unknown): string {
  if (e instanceof OpenAI.APIConnectionTimeoutError) return "timeout";
  // A reply refused for its size (reply-limit.ts) says so, not just "Connection error".
  const big = (e as { cause?: { cause?: { code?: string; message?: string } } } | null)?.cause?.cause;
  if (e instanceof OpenAI.APIConnectionError && big?.code === "ERR_REPLY_TOO_LARGE") return String(big.message).slice(0, 300);
  if (e instanceof APIError && e.status !== undefined) return redactSecrets(`HTTP ${e.status}: ${e.message}`).slice(0, 300);
  if (e instanceof Error) {
    // A connection error names its system error ("(ECONNREFUSED)"): what diagnoseRecorded turns into a hint.
    const code = e instanceof OpenAI.APIConnectionError ? causeCode(e) : null;
    // Named, not e.constructor.name: a production build minifies class names ("sf: Connection error.").
    const name = e instanceof OpenAI.APIConnectionError ? "APIConnectionError" : e.constructor.name;
    return redactSecrets(`${name}: ${e.message}${code ? ` (${code})` : ""}`).slice(0, 300);
  }
  return redactSecrets(String(e));
}

/** System errors of a connection that never reached the endpoint: nothing was sent, so nothing was used. */
const NOT_SENT =
  /^(ECONNREFUSED|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|ENETUNREACH|EADDRNOTAVAIL|UND_ERR_CONNECT_TIMEOUT|ERR_TLS_CERT\w*|\w*CERT\w*|EPROTO)$/;

/**
 * Whether a failed try may have been served without our seeing its usage: it timed out or was
 * aborted in flight, the connection dropped after the request went out, or the body could not be
 * read. Its ledger row says its tokens are unknown rather than 0. An HTTP error status is an answer
 * (nothing generated, no usage), and a connection refused or a name not resolved never reached it.
 */
export function usageUnknown(e: unknown): boolean {
  if (e instanceof RunPausedError) return false;
  if (e instanceof APIError && e.status !== undefined) return false;
  let c: unknown = e;
  for (let i = 0; i < 5 && c; i++) {
    const code = (c as { code?: unknown }).code;
    if (typeof code === "string" && NOT_SENT.test(code)) return false;
    c = (c as { cause?: unknown }).cause;
  }
  return true;
}

/** Retry-After (seconds or an HTTP date) or retry-after-ms, in ms. */
export function retryAfterMs(e: unknown): number | null {
  if (!(e instanceof APIError) || !e.headers) return null;
  const ms = Number(e.headers.get("retry-after-ms"));
  if (Number.isFinite(ms) && ms > 0) return ms;
  const h = e.headers.get("retry-after");
  if (!h) return null;
  const s = Number(h);
  if (Number.isFinite(s)) return s * 1000;
  const at = Date.parse(h);
  return Number.isFinite(at) ? Math.max(0, at - Date.now()) : null;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Runs `once` until it succeeds, a failure is not retryable, or the retries are spent. Every failed
 * try is reported to `onFailedTry` (before the wait), with whether another try follows. The first
 * try runs on its own: p-retry's bookkeeping cost a visible share of a call at many calls a second,
 * and almost every call succeeds at once; a failure hands the rest to p-retry with the same schedule
 * (a first wait of base..2·base, then doubling, at most maxMs).
 */
export async function withRetries<R>(
  once: () => Promise<R>,
  o: RetryOptions,
  onFailedTry: (error: unknown, willRetry: boolean) => void,
): Promise<R> {
  let timeouts = 0;
  /** Whether the last failed try is followed by another (p-retry asks after onFailedAttempt). */
  let again = true;
  /** Reports a failed try and waits any Retry-After; whether another try follows. */
  const failed = async (error: unknown, retriesLeft: number) => {
    if (isTimeout(error)) timeouts++;
    const willRetry = retriesLeft > 0 && shouldRetry(error) && timeouts <= (o.timeoutRetries ?? Infinity);
    again = willRetry;
    onFailedTry(error, willRetry);
    // The server said how long to wait: wait that long (the backoff comes after).
    const after = willRetry ? retryAfterMs(error) : null;
    if (after !== null) await sleep(Math.min(after, o.maxMs));
    return willRetry;
  };
  try {
    return await once();
  } catch (error) {
    if (!(await failed(error, o.retries))) throw error;
    await sleep(Math.min(Math.round((Math.random() + 1) * o.baseMs), o.maxMs));
  }
  return pRetry(once, {
    retries: o.retries - 1,
    minTimeout: o.baseMs * 2,
    maxTimeout: o.maxMs,
    factor: 2,
    randomize: true,
    onFailedAttempt: async ({ error, retriesLeft }) => void (await failed(error, retriesLeft)),
    shouldRetry: () => again,
  });
}

/** A try the run's spend guard refused was never sent: it ends the call at once. */
const shouldRetry = (error: unknown) => !(error instanceof RunPausedError) && isRetryable(error);
