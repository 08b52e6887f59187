/**
 * The model client's waiting room: one priority queue per role with a concurrency limit. A queued
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

export class RoleQueues {
  private readonly queues = new Map<ModelRole, PQueue>();
  /** Calls queued but not started, by id: their role, priority and group. */
  private readonly waiting = new Map<string, { role: ModelRole; priority: number; group: string | null }>();
  /** Groups whose waiting calls are dropped. Group names are unique per build. */
  private readonly cancelled = new Set<string>();

  constructor(private readonly concurrencyOf: (role: ModelRole) => number) {}

  private queue(role: ModelRole): PQueue {
    let q = this.queues.get(role);
    if (!q) {
      q = new PQueue({ concurrency: Math.max(1, this.concurrencyOf(role)) });
      this.queues.set(role, q);
    }
    return q;
  }

  /** Runs `fn` in one of the role's slots, queued by the slot's priority. */
  run<R>(role: ModelRole, slot: Slot, fn: () => Promise<R>): Promise<R> {
    const queue = this.queue(role);
    const { priority, group, id } = slot;
    // A call of a cancelled group gives its slot back without reaching the model.
    const start = () => {
      if (group !== null && this.cancelled.has(group)) return Promise.reject(new Error(`not asked: group ${group} was cancelled`));
      return fn();
    };
    if (id === undefined) return queue.add(start, { priority }) as Promise<R>;
    this.waiting.set(id, { role, priority, group });
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
    this.queue(w.role).setPriority(id, priority);
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
