/**
 * The model client's waiting room: one priority queue per role with a concurrency limit, or per
 * defined endpoint (with the endpoint's own limit) for the configurations that point at one. A queued
 * call can be moved up (an identical call of higher priority joined it, or a prefetch is now
 * needed) and the calls of a cancelled group give their slot back without reaching the model.
 */
import PQueue from "p-queue";
import type { ModelRole } from "@/db/schema";

export type Slot = {
  /** Higher first; equal ones in arrival order. */
  priority: number;
  /** A name for a set of queued calls, moved up or cancelled together. */
  group: string | null;
  /** A chat call's cache key, so a later identical call can raise it. */
  id?: string;
};

/** A defined endpoint's own queue: every role pointing at it shares its `concurrency` slots. */
export type Lane = { endpoint: string; concurrency: number };

/** A call of a cancelled group, dropped when it got its slot: it never reached the model. */
export class GroupCancelledError extends Error {
  constructor(group: string) {
    super(`not asked: group ${group} was cancelled`);
  }
}

export class RoleQueues {
  /** By role, or "endpoint:<name>" for a lane. */
  private readonly queues = new Map<string, PQueue>();
  /** Calls queued but not started, by id: their queue, priority and group. */
  private readonly waiting = new Map<string, { queue: PQueue; priority: number; group: string | null }>();
  /** Groups whose waiting calls are dropped. Group names are unique per build. */
  private readonly cancelled = new Set<string>();

  constructor(private readonly concurrencyOf: (role: ModelRole) => number) {}

  private queue(role: ModelRole, lane?: Lane): PQueue {
    const key = lane ? `endpoint:${lane.endpoint}` : role;
    let q = this.queues.get(key);
    if (!q) {
      q = new PQueue({ concurrency: Math.max(1, lane ? lane.concurrency : this.concurrencyOf(role)) });
      this.queues.set(key, q);
    } else if (lane && q.concurrency !== Math.max(1, lane.concurrency)) {
      // The admin changed the endpoint's limit: a long-running worker follows it.
      q.concurrency = Math.max(1, lane.concurrency);
    }
    return q;
  }

  /** Runs `fn` in one of the role's slots (or the endpoint's, given a lane), queued by the slot's priority. */
  run<R>(role: ModelRole, slot: Slot, fn: () => Promise<R>, lane?: Lane): Promise<R> {
    const queue = this.queue(role, lane);
    const { priority, group, id } = slot;
    // A call of a cancelled group gives its slot back without reaching the model.
    const start = () => {
      if (group !== null && this.cancelled.has(group)) return Promise.reject(new GroupCancelledError(group));
      return fn();
    };
    if (id === undefined) return queue.add(start, { priority }) as Promise<R>;
    this.waiting.set(id, { queue, priority, group });
    return queue.add(
      () => {
        this.waiting.delete(id);
        return start();
      },
      { priority, id },
    ) as Promise<R>;
  }

  /** A call waiting for a slot moves up to `priority` (never down). */
  raise(id: string, priority: number): void {
    const w = this.waiting.get(id);
    if (!w || w.priority >= priority) return;
    w.priority = priority;
    w.queue.setPriority(id, priority);
  }

  /** Moves every call of `group` still waiting for a slot up to `priority`. */
  raiseGroup(group: string, priority: number): void {
    for (const [id, w] of this.waiting) if (w.group === group) this.raise(id, priority);
  }

  /** Calls of `group` still waiting are dropped when they get a slot. */
  cancelGroup(group: string): void {
    this.cancelled.add(group);
  }
}
