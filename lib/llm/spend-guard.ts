import { AppError } from "@/lib/errors";
import type { LedgerRow } from "./ledger";
import { envNumber } from "@/lib/config";

/** A run stopped by its spend guard: the attempt was not made and the run pauses itself. */
export class RunPausedError extends AppError {
  constructor(readonly reason: string) {
    super(`run paused: ${reason}`, 409, "run_paused", 3);
  }
}

/** How a pause for an unreachable endpoint begins (the pages add the endpoint's hint to it). */
export const CONNECTION_PAUSE = "the endpoint could not be reached";

export type Prices = Partial<Record<string, { prompt: number; completion: number }>>;

export type SpendGuardOptions = {
  /** The run pauses when its first `probe` attempts all failed the same way (default 20). */
  probe?: number;
  /** ... or when at least half of its last `window` calls failed the same way (default 50). */
  window?: number;
  /**
   * The run pauses when this many attempts in a row (transport retries included) could not reach the
   * endpoint at all (default PAL_CONNECTION_FAILURES or 5): a dead endpoint pauses the run in seconds,
   * not after every call's retries (issue 44.3). Nothing was sent, so nothing was spent; Resume goes on.
   */
  connectionFailures?: number;
  /** Optional cap on paid attempts (cache hits are free). */
  maxCalls?: number | null;
  /** Optional cap in USD, at `prices` (USD per million tokens, by model role). */
  maxUsd?: number | null;
  prices?: Prices;
  /** Paid attempts and cost already spent by the run before this process took it up (a resumed run). */
  spent?: { calls: number; usd: number };
  /** Called once, when the guard trips: the run records the reason and pauses. */
  onTrip(reason: string): void;
  /**
   * Asked before every attempt: why the run was stopped from outside (an experiment paused or
   * cancelled, by any process), or null. One indexed read per request, so a cancel holds at once.
   */
  stopped?: () => string | null;
};

/** What kind of failure a ledger row is, so "the same way" groups like failures (numbers and ids vary). */
export function failureKind(row: Pick<LedgerRow, "status" | "error" | "rawReply">): string | null {
  if (row.status === "ok") return null;
  if (row.rawReply !== undefined && row.rawReply !== null) return "invalid reply";
  const e = row.error ?? "";
  const http = /HTTP (\d{3})/.exec(e);
  if (http) return `HTTP ${http[1]}`;
  if (/timeout|timed out/i.test(e)) return "timeout";
  if (/connect|ECONN|socket|fetch failed|network|terminated/i.test(e)) return "connection failed";
  return e.replace(/\d+/g, "#").slice(0, 60) || "failed";
}

/**
 * Spending safety for one run (an experiment, a memory build, a judge run). It sees every attempt the
 * run's calls make (the model client reports the ledger rows of views bound to it) and trips when the
 * first `probe` attempts all failed, when half of the last `window` calls failed the same way, or when a spend
 * cap is reached. Until the run's first accepted reply its calls go one at a time, so an endpoint that
 * never answers usefully costs at most `probe` attempts before the run stops. A tripped guard refuses
 * every further attempt with RunPausedError.
 *
 * The call cap counts a request when it is let through (admit), not when its reply comes back: with
 * many calls in flight, counting replies let a run send as many requests past its cap as it had in
 * flight. A batch takes its places before it is sent (reserve), so no more requests reach the endpoint
 * than the cap allows. The USD cap can only count what replies report, so the calls in flight when it
 * is reached may pass it.
 */
export class SpendGuard {
  private readonly probe: number;
  private readonly window: number;
  private attempts = 0;
  private anyOk = false;
  private lastKind: string | null = null;
  private sameRun = 0;
  private calls: number;
  private usd: number;
  /** Calls whose reported usage was not believed, counted at their worst case (said in the pause reason). */
  private unbelieved = 0;
  private recent: Array<string | null> = [];
  private readonly connectionFailures: number;
  private unreachable = 0;
  private reasonText: string | null = null;
  /** Probation lock: the tail of the chain of calls waiting to go one at a time. */
  private tail: Promise<void> = Promise.resolve();

  constructor(private readonly o: SpendGuardOptions) {
    this.probe = o.probe ?? 20;
    this.window = o.window ?? 50;
    this.connectionFailures = o.connectionFailures ?? envNumber("PAL_CONNECTION_FAILURES", 5);
    this.calls = o.spent?.calls ?? 0;
    this.usd = o.spent?.usd ?? 0;
  }

  get reason(): string | null {
    return this.reasonText;
  }

  /**
   * Lets one request through, counting it against the call cap, or throws RunPausedError (the guard
   * has tripped, or the cap has no place left: it trips now): called before every attempt.
   */
  admit(): void {
    if (this.reasonText === null) {
      // Paused or cancelled elsewhere (the page, Ctrl+C in `pal run`): no further attempt, nothing to record.
      const stopped = this.o.stopped?.();
      if (stopped) this.reasonText = stopped;
    }
    if (this.room() < 1) throw new RunPausedError(this.refuse());
    this.calls++;
  }

  /** Requests the caps still let through (Infinity without a call cap; 0 once tripped or at the USD cap). */
  room(): number {
    if (this.reasonText !== null) return 0;
    if (this.o.maxUsd != null && this.usd >= this.o.maxUsd) return 0;
    return this.o.maxCalls != null ? Math.max(0, this.o.maxCalls - this.calls) : Infinity;
  }

  /** Takes `n` places for requests sent together (a batch); at most room(): returns how many it took. */
  reserve(n: number): number {
    const took = Math.min(n, this.room());
    this.calls += took;
    return took;
  }

  /** Gives back places reserved for requests that were not sent after all (a batch the endpoint refused). */
  unreserve(n: number): void {
    this.calls = Math.max(0, this.calls - n);
  }

  /** Trips the guard at its cap (nothing more fits) and returns the reason: what a refused request says. */
  refuse(): string {
    if (this.reasonText === null) {
      if (this.o.maxUsd != null && this.usd >= this.o.maxUsd)
        this.trip(
          `the spend cap of $${this.o.maxUsd} was reached ($${this.usd.toFixed(4)} spent` +
            (this.unbelieved ? `, ${this.unbelieved} call(s) whose reported usage was not believed counted at their worst case)` : ")"),
        );
      else this.trip(`the spend cap of ${this.o.maxCalls} paid calls was reached`);
    }
    return this.reasonText!;
  }

  /**
   * Waits for the call's turn: one call at a time until the run's first accepted reply, then free.
   * Returns the release to call when the call has ended.
   */
  async enter(): Promise<() => void> {
    if (this.anyOk) return () => {};
    let release!: () => void;
    const mine = new Promise<void>((r) => (release = r));
    const before = this.tail;
    this.tail = before.then(() => mine);
    await before;
    return release;
  }

  /** One ledger row of the run's calls (paid attempts and cache hits); its request was counted when admitted or reserved. */
  observe(row: LedgerRow): void {
    if (row.cacheHit) return;
    this.attempts++;
    const price = this.o.prices?.[row.role];
    // Usage not believed (usage-check.ts) counts at the most the call can have cost: a server reporting
    // negative or absurd counts cannot spend past the cap.
    const t = row.usageUnknown && row.worstCase ? row.worstCase : row;
    if (row.usageUnknown && row.worstCase) this.unbelieved++;
    if (price)
      this.usd += (Math.max(0, t.promptTokens ?? 0) * price.prompt + Math.max(0, t.completionTokens ?? 0) * price.completion) / 1e6;
    const kind = failureKind(row);
    if (kind === null) this.anyOk = true;
    // The window holds how calls ended (accepted, or failed for good), not the attempts in between: an
    // invalid reply that a regeneration fixes, or a 429 that a retry gets past, is not a failed call.
    if (row.status === "ok" || row.status === "failed") {
      this.recent.push(kind);
      if (this.recent.length > this.window) this.recent.shift();
    }
    if (this.reasonText !== null) return;
    // The endpoint unreachable N attempts in a row (retries included), whatever came before.
    this.unreachable = kind === "connection failed" ? this.unreachable + 1 : 0;
    if (this.unreachable >= this.connectionFailures) {
      this.trip(
        `${CONNECTION_PAUSE} (${row.endpoint}): ${this.unreachable} attempts in a row could not connect (${(row.error ?? "").slice(0, 200)})`,
      );
      return;
    }
    // Before any accepted reply: the same failure `probe` times in a row (mixed transient faults that a
    // retry may get past are not a broken endpoint).
    // Transport tries the client retries ("retry" rows) cost nothing and belong to one call: the probe
    // counts invalid replies and calls that failed for good.
    if (!this.anyOk && kind !== null && row.status !== "retry") {
      this.sameRun = kind === this.lastKind ? this.sameRun + 1 : 1;
      this.lastKind = kind;
      if (this.sameRun >= this.probe) {
        this.trip(
          `the first ${this.attempts} attempts all failed, the last ${this.sameRun} the same way (${kind}: ${(row.error ?? "").slice(0, 200)})`,
        );
        return;
      }
    }
    if (kind !== null && this.recent.length >= this.window) {
      const same = this.recent.filter((k) => k === kind).length;
      if (same * 2 >= this.window) {
        this.trip(`${same} of the last ${this.window} calls failed the same way (${kind}: ${(row.error ?? "").slice(0, 200)})`);
        return;
      }
    }
    // The USD cap is known only from replies: reached, the run stops now (the call cap trips when a request finds no place).
    if (this.o.maxUsd != null && this.usd >= this.o.maxUsd) this.refuse();
  }

  private trip(reason: string): void {
    this.reasonText = reason;
    this.o.onTrip(reason);
  }
}
