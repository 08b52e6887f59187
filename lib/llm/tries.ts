/**
 * Retry with backoff, and what every try of a request goes through: no new request once the process
 * is finishing, the run's spend guard admits it, a place under the endpoint's limits, the request
 * counted in flight (a process that stops waiting records it), and a ledger row for each failed try
 * with its attempt number. Backoff, Retry-After and which failures are worth another try: retry.ts.
 */
import type { View } from "./client-types";
import type { ModelConfig } from "./config";
import type { Core } from "./core";
import { draining, requestStarted } from "./inflight";
import type { LedgerRow } from "./ledger";
import { recordRow } from "./ledger-write";
import { describe, isTimeout, usageUnknown, withRetries } from "./retry";
import { takePlace } from "./slot";
import { RunPausedError } from "./spend-guard";
import { streamedOf, type Live, type Streamed } from "./stream";

export type TryRow = Omit<LedgerRow, "cacheHit" | "attempt" | "status">;

export type TryOptions<R> = {
  /** The row every try's ledger entry starts from. */
  row: TryRow;
  /** Tries of one logical call so far, regenerations included (each failed one adds 1; the caller writes the successful one). */
  tries: { n: number };
  /** A failure the caller handles by asking again differently (a refused JSON mode): noted as "retry". */
  handled?: (e: unknown) => string | null;
  /** The configuration's defined endpoint, whose requests/min and tokens/min every try honours. */
  limits?: ModelConfig["endpoint"];
  /** The tokens a reply used (counted against tokens/min). */
  tokensOf: (r: R) => number;
};

/** What a cut stream's row says about its tokens. */
function cutNote(s: Streamed): string {
  return s.estimated
    ? ` (the stream was cut after ${s.usage.completionTokens} completion tokens, counted from its chunks; prompt tokens unknown)`
    : " (the stream was cut; its usage came with it)";
}

/** The ledger fields of a failed try: what it said, and what is known of its tokens. */
export function failedTryFields(error: unknown): Pick<LedgerRow, "error" | "usageUnknown" | "promptTokens" | "completionTokens"> {
  const s = streamedOf(error);
  if (!s) return { error: describe(error), usageUnknown: usageUnknown(error) };
  return {
    error: `${describe(error)}${cutNote(s)}`,
    usageUnknown: s.estimated,
    promptTokens: s.usage.promptTokens,
    completionTokens: s.usage.completionTokens,
  };
}

/** One try: admitted, placed, counted in flight, and recorded if the process stops waiting for it. */
async function oneTry<R>(core: Core, view: View, once: (live: Live) => Promise<R>, o: TryOptions<R>, started: number): Promise<R> {
  // A process finishing (inflight.ts) sends nothing new: a regeneration or retry would be a new paid request.
  if (draining()) throw new RunPausedError("the process is finishing: no new model request");
  view.guard?.admit();
  // Across processes on this database (rate-limit.ts); no endpoint: nothing to wait for.
  const place = await takePlace(core, o.limits ?? null);
  core.stats.requests++;
  const live: Live = { streamed: null };
  // In flight until it settles (its row is written then: its failure row, or the caller's reply row a
  // few turns later); a process that stops waiting records it with what it streamed, else tokens unknown.
  let abandoned = false;
  const sent = requestStarted(
    () => {
      abandoned = true;
      // A stream is cut here, where it is counted: what the server would generate after it is never received.
      live.cut?.();
      const s = live.streamed?.() ?? null;
      recordRow(core, view, {
        ...o.row,
        cacheHit: false,
        attempt: o.tries.n + 1,
        status: "failed",
        error: `the process stopped before the reply came (the request reached the endpoint)${s && s.chunks > 0 ? cutNote(s) : ""}`,
        latencyMs: Date.now() - started,
        usageUnknown: true,
        ...(s && s.chunks > 0 ? { promptTokens: s.usage.promptTokens, completionTokens: s.usage.completionTokens } : {}),
      });
    },
    () => live.streamed !== null,
  );
  let tokens = 0;
  let r: R;
  const seq = core.nextSent++;
  core.sent.set(seq, Date.now());
  try {
    r = await once(live);
    tokens = o.tokensOf(r);
  } catch (e) {
    const s = streamedOf(e);
    if (s) tokens = s.usage.promptTokens + s.usage.completionTokens;
    if (!abandoned) throw e;
  } finally {
    core.sent.delete(seq);
    place.release(tokens);
    sent();
  }
  // Recorded already when the process stopped waiting: what comes back now is neither recorded nor used.
  if (abandoned) throw new RunPausedError("the process stopped before the reply came");
  return r!;
}

/** Runs `once` with transport retries; every failed try is written to the ledger at once. */
export function retrying<R>(core: Core, view: View, once: (live: Live) => Promise<R>, o: TryOptions<R>): Promise<R> {
  const { retries, retryBaseMs, retryMaxMs, timeoutRetries } = core.opts;
  const started = Date.now();
  return withRetries(
    () => oneTry(core, view, once, o, started),
    { retries, baseMs: retryBaseMs, maxMs: retryMaxMs, timeoutRetries },
    (error, willRetry) => {
      if (error instanceof RunPausedError) return; // refused before it was sent: nothing paid, nothing to record
      if (isTimeout(error)) core.stats.timeouts++;
      o.tries.n++;
      const note = o.handled?.(error) ?? null;
      const fields = failedTryFields(error);
      recordRow(core, view, {
        ...o.row,
        cacheHit: false,
        attempt: o.tries.n,
        status: willRetry || note !== null ? "retry" : "failed",
        ...fields,
        error: note ?? fields.error,
        latencyMs: Date.now() - started,
      });
    },
  );
}
