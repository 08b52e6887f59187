/**
 * Browser requests that say what failed (issue 44.8): the bare "Failed to fetch" of a network error
 * (the server restarting, the connection dropped) becomes "Could not <what>: the server did not answer
 * (tried 3 times) ...", and requests safe to repeat are retried on their own first. A POST is not retried:
 * the server may have acted on it before the connection dropped.
 */

export type RetryOptions = {
  /** What the request does, as a verb phrase: "load the judge runs", "save the star". */
  what: string;
  /** Attempts in all for requests safe to repeat (GET, HEAD, PUT, PATCH, DELETE). Default 3. */
  attempts?: number;
  /** Wait before the n-th retry, ms (doubling). Default 500. */
  delayMs?: number;
};

const SAFE = new Set(["GET", "HEAD", "PUT", "PATCH", "DELETE"]);

/** A network error (no reply at all), named for the person reading it. */
export class NetworkError extends Error {
  constructor(what: string, tries: number, cause: unknown) {
    super(
      `Could not ${what}: the server did not answer${tries > 1 ? ` (tried ${tries} times)` : ""}. It may be restarting or the connection dropped; check it and try again.`,
      { cause },
    );
    this.name = "NetworkError";
  }
}

export async function fetchRetry(url: string, init: RequestInit & RetryOptions): Promise<Response> {
  const { what, attempts = 3, delayMs = 500, ...req } = init;
  const tries = SAFE.has((req.method ?? "GET").toUpperCase()) ? Math.max(1, attempts) : 1;
  let last: unknown;
  for (let i = 0; i < tries; i++) {
    if (i > 0) await new Promise((r) => setTimeout(r, delayMs * 2 ** (i - 1)));
    try {
      return await fetch(url, req);
    } catch (e) {
      // An abort is the caller's own doing: passed on as it is.
      if (e instanceof Error && e.name === "AbortError") throw e;
      last = e;
    }
  }
  throw new NetworkError(what, tries, last);
}

/** A JSON request: the reply's `error` (or its HTTP status) as the Error's message, network errors named. */
export async function fetchJson<T>(url: string, init: RequestInit & RetryOptions): Promise<T> {
  const r = await fetchRetry(url, init);
  const data = await r.json().catch(() => ({ error: `HTTP ${r.status}` }));
  if (!r.ok) throw new Error(`Could not ${init.what}: ${(data as { error?: string }).error ?? `HTTP ${r.status}`}`);
  return data as T;
}
