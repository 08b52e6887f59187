/**
 * The model requests of this process that are on their way to an endpoint, and their ledger writes, so a
 * process can finish them before it closes its database: a reply that arrives after its memory build
 * or run failed was still paid for, and the ledger records it (issue 27.4: a CLI that closed the
 * database first dropped those replies). No imports: the CLI loads this at every exit.
 */

type State = { requests: Set<{ abandon?: () => void }>; writes: number; draining: boolean };
const g = globalThis as unknown as { __palInflight?: State };
const state: State = (g.__palInflight ??= { requests: new Set(), writes: 0, draining: false });

/**
 * Counts one request from when it is sent until it has settled; call the returned function then.
 * `abandon` writes its ledger row when the process cannot wait for the reply (drainModelRequests'
 * maxWaitMs): the request reached the endpoint, its tokens are unknown.
 */
export function requestStarted(abandon?: () => void): () => void {
  const entry = { abandon };
  state.requests.add(entry);
  return () => void state.requests.delete(entry);
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
 * requests still out then are recorded as reaching the endpoint with unknown tokens. Returns how many
 * requests it waited for.
 */
export async function drainModelRequests(onWait?: (requests: number) => void, o: { maxWaitMs?: number } = {}): Promise<number> {
  state.draining = true;
  const waited = state.requests.size;
  if (waited > 0) onWait?.(waited);
  const until = Date.now() + (o.maxWaitMs ?? Infinity);
  // A reply's row is written a few turns after its request settles (validation, then a group commit).
  while ((state.requests.size > 0 || state.writes > 0) && Date.now() < until) await new Promise((r) => setTimeout(r, 10));
  for (const r of [...state.requests]) {
    state.requests.delete(r);
    r.abandon?.();
  }
  await new Promise((r) => setImmediate(r));
  return waited;
}

/** Lets requests start again (tests that drain and go on in the same process). */
export function resumeModelRequests(): void {
  state.draining = false;
}
