/**
 * The model requests of this process that are on their way to an endpoint, and their ledger writes, so a
 * process can finish them before it closes its database: a reply that arrives after its memory build
 * or run failed was still paid for, and the ledger records it (issue 27.4: a CLI that closed the
 * database first dropped those replies). No imports: the CLI loads this at every exit.
 */

type State = { requests: number; writes: number; draining: boolean };
const g = globalThis as unknown as { __palInflight?: State };
const state: State = (g.__palInflight ??= { requests: 0, writes: 0, draining: false });

/** Counts one request from before it is sent until its ledger row is written; call the returned function then. */
export function requestStarted(): () => void {
  state.requests++;
  let done = false;
  return () => {
    if (done) return;
    done = true;
    state.requests--;
  };
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
  return { requests: state.requests, writes: state.writes };
}

/** Whether the process is finishing: no new request may start (a regeneration would be a new paid call). */
export function draining(): boolean {
  return state.draining;
}

/**
 * Stops new requests and waits until every request in flight has its ledger row (its reply, or its
 * timeout, comes back: the per-request timeout bounds the wait). `onWait` is told once how many are
 * still out, when any are. Returns how many requests it waited for.
 */
export async function drainModelRequests(onWait?: (requests: number) => void): Promise<number> {
  state.draining = true;
  const waited = state.requests;
  if (waited > 0) onWait?.(waited);
  // A reply's row is written a few turns after its request settles (validation, then a group commit).
  while (state.requests > 0 || state.writes > 0) await new Promise((r) => setTimeout(r, 10));
  await new Promise((r) => setImmediate(r));
  return waited;
}

/** Lets requests start again (tests that drain and go on in the same process). */
export function resumeModelRequests(): void {
  state.draining = false;
}
