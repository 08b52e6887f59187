/** How a run's activity (./activity.ts) reads, for the CLI's progress line and the experiment page (no server code). */

export type RunActivity = {
  /** Live processes running the experiment (Admin → Settings' worker count, or `pal run --workers N`). */
  processes: number;
  /** Requests on their way now, over every live process running the experiment. */
  calls: number;
  /** How long the oldest of them has waited, in ms (null: none in flight). */
  oldestMs: number | null;
  /** Requests that ran into their timeout since the processes took the experiment up. */
  timeouts: number;
};

/**
 * "2 calls in flight, the oldest for 95 s · 1 timed out", led by "3 processes · " when more than one
 * runs it, or "" when there is nothing to say.
 */
export function activityText(a: RunActivity | null): string {
  if (!a) return "";
  const parts: string[] = [];
  if (a.processes > 1) parts.push(`${a.processes} processes`);
  if (a.calls > 0)
    parts.push(`${a.calls} call${a.calls === 1 ? "" : "s"} in flight, the oldest for ${Math.round((a.oldestMs ?? 0) / 1000)} s`);
  else parts.push("no call in flight");
  if (a.timeouts > 0) parts.push(`${a.timeouts} timed out`);
  return parts.join(" · ");
}
