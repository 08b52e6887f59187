/**
 * The run an external method's keys belong to (issue 41: "a token for that run only, refused once the run
 * stops"). A run (an experiment run by this process, or a memory build) opens a scope around its work;
 * every key handed to a method inside it stays valid until the scope closes or `stopped()` says the run
 * was paused or cancelled, so a service that calls the model after it answered (Mem0's writes in the
 * background) is still served, through the run's model handle (its spend guard, its ledger). Outside any
 * scope a key lives for the one request it was made for.
 *
 * The scope travels with the async context (AsyncLocalStorage): nothing in between has to pass it on.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import type { ModelClient } from "@/lib/llm/client";
import type { GrantModel } from "./protocol";

export type ExternalRun = {
  /** Names the run in errors, e.g. "experiment 12". */
  readonly id: string;
  /** The run's own handle: a call no request in flight can be credited with goes through it. */
  readonly model: GrantModel;
  /** Whether the run stopped from outside (paused, cancelled); asked at most every STOP_CHECK_MS. */
  stopped(): boolean;
  /** Set once the run's work returned: its keys are refused from then on. */
  closed: boolean;
  /** Called once as it closes (the endpoint forgets the run's keys). */
  onClose: Array<() => void>;
};

/** How stale the "was the run stopped?" answer may be for a key's check (it reads the database). */
const STOP_CHECK_MS = 200;

const als = new AsyncLocalStorage<ExternalRun>();

/** The run the current async context belongs to, if any. */
export const currentRun = (): ExternalRun | undefined => als.getStore();

/**
 * Runs `fn` as a run for external methods' keys; they are refused once it returns (or throws). Nested
 * scopes join the outer one (a memory build inside an experiment belongs to the experiment's run).
 */
export async function withExternalRun<T>(
  o: { id: string; model: GrantModel | ModelClient; stopped?: () => boolean },
  fn: () => Promise<T>,
): Promise<T> {
  if (als.getStore()) return fn();
  let checkedAt = 0;
  let wasStopped = false;
  const run: ExternalRun = {
    id: o.id,
    model: o.model as GrantModel,
    stopped() {
      if (run.closed || wasStopped) return true;
      if (!o.stopped) return false;
      const now = Date.now();
      if (now - checkedAt >= STOP_CHECK_MS) {
        checkedAt = now;
        wasStopped = o.stopped();
      }
      return wasStopped;
    },
    closed: false,
    onClose: [],
  };
  try {
    return await als.run(run, fn);
  } finally {
    run.closed = true;
    for (const f of run.onClose.splice(0)) f();
  }
}
