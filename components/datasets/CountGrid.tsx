import { fmtCount } from "@/lib/datasets/browse/format";

/** A row of labelled counts (users 10, samples 290, ...). */
export function CountGrid({ counts, testId }: { counts: Array<{ label: string; value: number | null | undefined }>; testId?: string }) {
  return (
    <dl data-testid={testId} className="grid grid-cols-2 gap-2 sm:grid-cols-3 lg:grid-cols-6">
      {counts.map((c) => (
        <div key={c.label} className="rounded-lg border border-slate-200 bg-white px-3 py-2">
          <dt className="text-[11px] uppercase tracking-wide text-slate-500">{c.label}</dt>
          <dd className="text-lg font-semibold tabular-nums text-slate-900">{fmtCount(c.value)}</dd>
        </div>
      ))}
    </dl>
  );
}
