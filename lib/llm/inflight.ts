/**
 * The model requests of this process that are on their way to an endpoint, and their ledger writes, so a
 * process can finish them before it closes its database: a reply that arrives after its memory build
 * or run failed was still paid for, and the ledger records it (issue 27.4: a CLI that closed the
 * database first dropped those replies). No imports: the CLI loads this at every exit.
 */

/** A request in flight: `abandon` records it when the process stops waiting; `counted` says whether it would then know its tokens (a stream). */
type Entry = { abandon?: () => void; counted?: () => boolean };
type State = { requests: Set<Entry>; writes: number; draining: boolean };
const g = globalThis as unknown as { __palInflight?: State };
const state: State = (g.__palInflight ??= { requests: new Set(), writes: 0, draining: false });

/**
 * Counts one request from when it is sent until it has settled; call the returned function then.
 * `abandon` writes its ledger row when the process cannot wait for the reply (drainModelRequests'
 * maxWaitMs): the request reached the endpoint, its tokens are what it streamed, else unknown.
 * `counted`: whether abandoning it now would record its tokens (a stream counts its chunks; a whole
 * reply cut midway leaves nothing to count).
 */
export function requestStarted(abandon?: () => void, counted?: () => boolean): () => void {
  const entry: Entry = { abandon, counted };
  state.requests.add(entry);
  return () => void state.requests.delete(entry);
}

/**
 * Records every request still out as abandoned (each writes its row at once, with what it streamed), or
 * only those `which` picks; returns how many. A process leaving at once (a second Ctrl+C) calls it before
 * it exits, so no request it sent is missing from the ledger.
 */
export function abandonModelRequests(which: (counted: boolean) => boolean = () => true): number {
  let n = 0;
  for (const r of [...state.requests]) {
    if (!which(r.counted?.() ?? false)) continue;
    state.requests.delete(r);
    r.abandon?.();
    n++;
  }
  return n;
}

/** Counts one pending ledger write (a group commit) until it has committed. */
export function writeStarted(): () => void {
  state.writes++;
  let done = false;
  return () => {
    if (done) return;
    done = true;
    state.writes--;
  };
}

/** Requests in flight (sent, or about to be, with no ledger row yet) and ledger writes pending. */
export function inFlight(): { requests: number; writes: number } {
  return { requests: state.requests.size, writes: state.writes };
}

/** Whether the process is finishing: no new request may start (a regeneration would be a new paid call). */
export function draining(): boolean {
  return state.draining;
}

/**
 * Stops new requests and waits until every request in flight has its ledger row (its reply, or its
 * timeout, comes back: the per-request timeout bounds the wait). `onWait` is told once how many are
 * still out, when any are. A process that cannot wait that long (interrupted) gives `maxWaitMs`: the
 * requests still out then are recorded as abandoned, a stream with the tokens it received (cut there, so
 * the server stops generating). With `wholeWaitMs`, the whole replies still out then (a cut would leave
 * their tokens unknown) are waited for that much longer, `onWhole` told how many, before they are
 * recorded too. Returns how many requests it waited for.
 */
export async function drainModelRequests(
  onWait?: (requests: number) => void,
  o: { maxWaitMs?: number; wholeWaitMs?: number; onWhole?: (requests: number) => void } = {},
): Promise<number> {
  state.draining = true;
  const waited = state.requests.size;
  if (waited > 0) onWait?.(waited);
  const settle = async (ms: number) => {
    const until = Date.now() + ms;
    // A reply's row is written a few turns after its request settles (validation, then a group commit).
    while ((state.requests.size > 0 || state.writes > 0) && Date.now() < until) await new Promise((r) => setTimeout(r, 10));
  };
  await settle(o.maxWaitMs ?? Infinity);
  if (o.wholeWaitMs && state.requests.size > 0) {
    abandonModelRequests((counted) => counted);
    if (state.requests.size > 0) {
      o.onWhole?.(state.requests.size);
      await settle(o.wholeWaitMs);
    }
  }
  abandonModelRequests();
  await new Promise((r) => setImmediate(r));
  return waited;
}

/** Lets requests start again (tests that drain and go on in the same process). */
export function resumeModelRequests(): void {
  state.draining = false;
}
