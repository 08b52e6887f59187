/**
 * One request to an external method's service: JSON in, JSON out, bounded in time (the method's timeout)
 * and size (MAX_REPLY_BYTES), the reply validated with its zod schema. Failures worth another try
 * (timeouts, dropped connections, 408/429/5xx, bad JSON, wrong keys) are retried with the model
 * client's policy (lib/llm/retry.ts); the last one is thrown as ExternalMethodError with what the service
 * said, so the job's failure names it. Nothing is ever invented in place of an answer.
 */
import type { z } from "zod";
import { envValue } from "@/lib/config";
import { withRetries, type RetryOptions } from "@/lib/llm/retry";
import { readCappedText } from "@/lib/http/body";
import { maskUrl } from "@/lib/llm/base-url";
import { jsonTextTooDeep, MAX_JSON_DEPTH } from "@/lib/json-depth";
import type { ExternalMethod } from "./store";

export const MAX_REPLY_BYTES = 8 * 1024 * 1024;

/**
 * The most one request to a method may carry. A /respond carries the memory the method handed back, which
 * the method sizes (8 MB per reply, over every session): past half of V8's longest string it would fail
 * as "Invalid string length" on each try after a 512 MB stringify. Tests lower it.
 */
export const SEND_LIMITS = { maxBytes: 256 * 1024 * 1024 };

export class ExternalMethodError extends Error {
  constructor(
    message: string,
    /** Whether the same request may succeed if sent again. */
    readonly retryable: boolean,
    /** The service did not answer within the method's timeout. */
    readonly timeout = false,
  ) {
    super(message);
    this.name = "ExternalMethodError";
  }
}

/**
 * The model client's retry policy (PAL_LLM_RETRIES, 1 s doubling, at most 60 s), and as there, one retry
 * at most after a timeout: a service that took the whole timeout once most likely will again.
 */
export function defaultPolicy(): RetryOptions {
  const n = Number(envValue("PAL_LLM_RETRIES") ?? 6);
  return { retries: Number.isInteger(n) && n >= 0 ? n : 6, baseMs: 1000, maxMs: 60_000, timeoutRetries: 1 };
}

/** A short, one-line excerpt of what a service said. */
const excerpt = (s: string) => s.replace(/\s+/g, " ").trim().slice(0, 500);

/** The reply's text, at most MAX_REPLY_BYTES (a larger one is the service's failure, not retried). */
const readBounded = (res: Response) =>
  readCappedText(
    res,
    MAX_REPLY_BYTES,
    (why) => new ExternalMethodError(`the reply is too large: ${why} (at most ${MAX_REPLY_BYTES})`, false),
  );

/** One try: the parsed, validated reply, or an ExternalMethodError saying what was wrong. */
async function once<T>(
  m: ExternalMethod,
  method: "GET" | "POST",
  path: string,
  body: string | undefined,
  schema: z.ZodType<T>,
): Promise<T> {
  const where = `${method} ${path}`;
  let res: Response;
  try {
    res = await fetch(m.url + path, {
      method,
      headers: { ...m.headers, accept: "application/json", ...(body === undefined ? {} : { "content-type": "application/json" }) },
      body,
      signal: AbortSignal.timeout(m.timeoutMs),
      // Never followed (the headers carry the lab's key; a 3xx could send them to another host), and
      // "manual" rather than "error" so the answer is a plain HTTP failure, not retried: it would not change.
      redirect: "manual",
    });
  } catch (e) {
    const err = e as Error;
    const timedOut = err.name === "TimeoutError";
    const why = timedOut
      ? `no reply within ${m.timeoutMs} ms`
      : `${err.message}${(err.cause as Error)?.message ? `: ${(err.cause as Error).message}` : ""}`;
    throw new ExternalMethodError(`${where}: ${why}`, true, timedOut);
  }
  let raw: string;
  try {
    raw = await readBounded(res);
  } catch (e) {
    if (e instanceof ExternalMethodError) throw new ExternalMethodError(`${where}: ${e.message}`, false);
    const err = e as Error;
    const timedOut = err.name === "TimeoutError";
    throw new ExternalMethodError(`${where}: ${timedOut ? `no reply within ${m.timeoutMs} ms` : err.message}`, true, timedOut);
  }
  if (!res.ok) {
    const s = res.status;
    const to =
      s >= 300 && s < 400
        ? ` (a redirect to ${excerpt(maskUrl(res.headers.get("location") ?? "nowhere")).slice(0, 200)}, not followed: register the final URL)`
        : "";
    throw new ExternalMethodError(
      `${where} answered HTTP ${s}${to}: ${excerpt(raw) || res.statusText}`,
      // 501: the service does not implement the path (an optional one, /reset): asking again will not help.
      s === 408 || s === 409 || s === 429 || (s >= 500 && s !== 501),
    );
  }
  // Checked before parsing: 8 MB of brackets costs JSON.parse a second of the event loop per try, and a
  // value that deep breaks whatever walks it later (JSON.stringify of the entries handed back).
  const deep = jsonTextTooDeep(raw);
  if (deep) throw new ExternalMethodError(`${where}: the reply's ${deep.field} is nested deeper than ${MAX_JSON_DEPTH} levels`, false);
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    throw new ExternalMethodError(`${where} answered something that is not JSON: ${excerpt(raw).slice(0, 200)}`, true);
  }
  const r = schema.safeParse(json);
  if (!r.success) {
    const i = r.error.issues[0];
    throw new ExternalMethodError(`${where}: the reply's ${i.path.join(".") || "(root)"}: ${i.message}`, true);
  }
  return r.data;
}

/**
 * Sends a request with retries. `stop()` is asked after each failed try: a reason that no retry can help
 * (the run's spend cap paused it while the method was calling the model) ends at once with that error.
 */
/** A failure that ends the request (kept apart from any reply's own shape). */
class Final {
  constructor(readonly error: Error) {}
}

export async function callService<T>(
  m: ExternalMethod,
  request: { method: "GET" | "POST"; path: string; body?: unknown; schema: z.ZodType<T> },
  policy: RetryOptions = defaultPolicy(),
  stop: () => Error | null = () => null,
): Promise<T> {
  // Made once for every try, and bounded: the memory a method handed back travels with each answer.
  let body: string | undefined;
  try {
    body = request.body === undefined ? undefined : JSON.stringify(request.body);
  } catch (e) {
    throw new ExternalMethodError(
      `external method "${m.name}": ${request.method} ${request.path}: the request cannot be made: ${(e as Error).message}`,
      false,
    );
  }
  if (body !== undefined && body.length > SEND_LIMITS.maxBytes)
    throw new ExternalMethodError(
      `external method "${m.name}": ${request.method} ${request.path}: the request would be ${(body.length / 2 ** 20).toFixed(0)} MB, over the ${(SEND_LIMITS.maxBytes / 2 ** 20).toFixed(0)} MB sent to a method (the memory it handed back travels with each answer: hand back less, or keep it in the service)`,
      false,
    );
  // withRetries retries every non-HTTP error: a failure no retry can help leaves it as a value.
  let timeouts = 0;
  const r = await withRetries<T | Final>(
    async () => {
      try {
        return await once(m, request.method, request.path, body, request.schema);
      } catch (e) {
        const fatal = stop();
        if (fatal) return new Final(fatal);
        if (e instanceof ExternalMethodError && !e.retryable) return new Final(e);
        if (e instanceof ExternalMethodError && e.timeout && ++timeouts > (policy.timeoutRetries ?? Infinity)) return new Final(e);
        throw e;
      }
    },
    policy,
    () => {},
  ).catch((e: unknown) => new Final(e instanceof Error ? e : new Error(String(e))));
  if (r instanceof Final) {
    const e = stop() ?? r.error;
    if (e instanceof ExternalMethodError) throw new ExternalMethodError(`external method "${m.name}": ${e.message}`, e.retryable);
    throw e;
  }
  return r as T;
}
