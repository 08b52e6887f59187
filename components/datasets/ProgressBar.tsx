/** A determinate progress bar with a readable label; `value` null means "working, size unknown". */
export function ProgressBar({
  value,
  max,
  label,
  tone = "active",
}: {
  value: number | null;
  max: number;
  label: string;
  tone?: "active" | "done" | "error";
}) {
  const pct = value == null || max <= 0 ? null : Math.max(0, Math.min(100, (100 * value) / max));
  return (
    <div>
      <div className="mb-1 flex justify-between text-xs text-slate-600">
        <span>{label}</span>
        <span className="tabular-nums">{pct == null ? "" : `${Math.floor(pct)}%`}</span>
      </div>
      <div
        role="progressbar"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={pct == null ? undefined : Math.floor(pct)}
        className="h-2 overflow-hidden rounded-full bg-slate-200"
      >
        <div
          className={`h-full rounded-full ${tone === "error" ? "bg-rose-500" : tone === "done" ? "bg-emerald-600" : "bg-indigo-600"} transition-[width] duration-200 ${pct == null ? "w-1/3 animate-pulse" : ""}`}
          style={pct == null ? undefined : { width: `${pct}%` }}
        />
      </div>
    </div>
  );
}
