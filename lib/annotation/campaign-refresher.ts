/**
 * The background refresher behind a campaign's cached results (the agreement report, the participants
 * table): a page that finds its stored result stale asks for a new one and shows the old one meanwhile.
 * One campaign is computed at a time, and a campaign rests after a computation (twice its duration, at
 * least 250 ms) so a stream of submits cannot keep a core busy. A computation that fails is remembered
 * with the key it failed for, so pages say why instead of asking again for the same labels.
 */
import type { Db } from "@/db/client";

type State = {
  queue: Set<number>;
  running: number | null;
  /** campaign → when its last computation finished and how long it took. */
  last: Map<number, { at: number; ms: number }>;
  failed: Map<number, { key: string; error: string }>;
  timer: ReturnType<typeof setTimeout> | null;
};

export interface CampaignRefresher {
  /** Queues a campaign for this process's refresher. */
  request(db: Db, campaignId: number): void;
  /** Queued or being computed now. */
  busy(db: Db, campaignId: number): boolean;
  /** Why the last computation failed, when it failed for this very key; else null. */
  failure(db: Db, campaignId: number, key: string | null): string | null;
  /** Waits until the refresher is idle (tests). */
  idle(db: Db, timeoutMs?: number): Promise<void>;
}

/**
 * A refresher named `what` (in its log lines), its state on globalThis under `slot` (one per database and
 * process: Next's module reloading in dev must not start a second one). `keyOf` says what a result is
 * computed from (null: the campaign is gone); `compute` computes and stores it.
 */
export function campaignRefresher(o: {
  slot: string;
  what: string;
  keyOf: (db: Db, campaignId: number) => string | null;
  compute: (db: Db, campaignId: number) => Promise<unknown>;
}): CampaignRefresher {
  const g = globalThis as unknown as Record<string, WeakMap<Db, State> | undefined>;
  const state = (db: Db): State => {
    const all = (g[o.slot] ??= new WeakMap());
    let s = all.get(db);
    if (!s) all.set(db, (s = { queue: new Set(), running: null, last: new Map(), failed: new Map(), timer: null }));
    return s;
  };
  const restOf = (s: State, campaignId: number): number => {
    const last = s.last.get(campaignId);
    return last ? Math.max(0, last.at + Math.max(250, 2 * last.ms) - Date.now()) : 0;
  };
  const schedule = (db: Db, ms: number) => {
    const s = state(db);
    if (s.running !== null || s.timer) return;
    s.timer = setTimeout(() => {
      s.timer = null;
      void drain(db);
    }, ms);
    // A waiting refresh must not keep a CLI or test process alive.
    s.timer.unref?.();
  };
  const drain = async (db: Db): Promise<void> => {
    const s = state(db);
    if (s.running !== null) return;
    const ready = [...s.queue].map((id) => ({ id, wait: restOf(s, id) })).sort((a, b) => a.wait - b.wait)[0];
    if (!ready) return;
    if (ready.wait > 0) return schedule(db, ready.wait);
    s.queue.delete(ready.id);
    s.running = ready.id;
    const key = o.keyOf(db, ready.id);
    const t0 = Date.now();
    try {
      if (key !== null) await o.compute(db, ready.id);
      s.failed.delete(ready.id);
    } catch (e) {
      const error = e instanceof Error ? e.message : String(e);
      console.error(`${o.what} of campaign ${ready.id} failed:`, e);
      if (key !== null) s.failed.set(ready.id, { key, error });
    } finally {
      s.last.set(ready.id, { at: Date.now(), ms: Date.now() - t0 });
      s.running = null;
    }
    if (s.queue.size) schedule(db, 0);
  };
  return {
    request(db, campaignId) {
      state(db).queue.add(campaignId);
      schedule(db, 0);
    },
    busy(db, campaignId) {
      const s = state(db);
      return s.queue.has(campaignId) || s.running === campaignId;
    },
    failure(db, campaignId, key) {
      const failed = state(db).failed.get(campaignId);
      return failed && failed.key === key ? failed.error : null;
    },
    async idle(db, timeoutMs = 60_000) {
      const until = Date.now() + timeoutMs;
      const s = state(db);
      while (s.queue.size || s.running !== null) {
        if (Date.now() > until) throw new Error(`the ${o.what} refresher did not go idle`);
        await new Promise((r) => setTimeout(r, 20));
      }
    },
  };
}
