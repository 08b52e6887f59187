/**
 * How a run's state reads on its page, in lists and in the CLI. A finished run with failed items is not a
 * plain "done": it reads "done, N failed" in amber, and a run paused by its spend guard says so.
 */
export type RunTone = "ok" | "warn" | "error" | "active" | "neutral";

export function runStatusLabel(status: string, failed: number, total?: number): { text: string; tone: RunTone } {
  if (status === "done" || status === "complete" || status === "finished") {
    if (failed > 0) return { text: `${status}, ${failed}${total !== undefined ? ` of ${total}` : ""} failed`, tone: "warn" };
    return { text: status, tone: "ok" };
  }
  if (status === "failed") return { text: status, tone: "error" };
  if (status === "running" || status === "queued") return { text: status, tone: "active" };
  if (status === "paused") return { text: status, tone: "warn" };
  return { text: status, tone: "neutral" };
}

/** Tailwind classes of a tone: text/badge colours and the progress bar's fill. */
export const TONE_CLASSES: Record<RunTone, { badge: string; bar: string }> = {
  ok: { badge: "bg-emerald-50 text-emerald-800", bar: "bg-emerald-500" },
  warn: { badge: "bg-amber-100 text-amber-900", bar: "bg-amber-500" },
  error: { badge: "bg-rose-50 text-rose-800", bar: "bg-rose-500" },
  active: { badge: "bg-indigo-50 text-indigo-800", bar: "bg-indigo-500" },
  neutral: { badge: "bg-slate-100 text-slate-700", bar: "bg-slate-400" },
};
