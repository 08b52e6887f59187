import type { QualityReport as Report } from "@/lib/datasets/types";
import { fmtCount, humanKey as words } from "@/lib/datasets/browse/format";

/** Reads a stored report leniently: older or partial reports still show what they have. */
export function asReport(raw: unknown): Report | null {
  if (!raw || typeof raw !== "object") return null;
  const r = raw as Partial<Report>;
  return {
    counts: r.counts && typeof r.counts === "object" ? r.counts : {},
    warnings: Array.isArray(r.warnings) ? r.warnings : [],
    unrecognised: Array.isArray(r.unrecognised) ? r.unrecognised : undefined,
  };
}

/** The data-quality report of an import: counts, each kind of warning with examples, unrecognised keys. */
export function QualityReport({ report }: { report: unknown }) {
  const r = asReport(report);
  if (!r) return <p className="text-sm text-slate-500">No quality report was stored with this data set.</p>;
  const counts = Object.entries(r.counts);
  const totalWarnings = r.warnings.reduce((s, w) => s + (w.count ?? 0), 0);
  return (
    <section aria-labelledby="quality-title" data-testid="quality-report" className="rounded-lg border border-slate-200 bg-white">
      <header className="flex flex-wrap items-baseline justify-between gap-2 border-b border-slate-100 px-4 py-3">
        <h2 id="quality-title" className="text-sm font-semibold text-slate-800">
          Data quality
        </h2>
        <p className="text-xs text-slate-500">
          {r.warnings.length === 0
            ? "No warnings."
            : `${r.warnings.length} kind${r.warnings.length === 1 ? "" : "s"} of warning, ${fmtCount(totalWarnings)} occurrence${totalWarnings === 1 ? "" : "s"}`}
        </p>
      </header>
      <div className="space-y-4 px-4 py-3">
        {counts.length ? (
          <dl className="grid grid-cols-2 gap-x-6 gap-y-1 text-sm sm:grid-cols-3 lg:grid-cols-4">
            {counts.map(([k, v]) => (
              <div key={k} className="flex justify-between gap-2 border-b border-dotted border-slate-200 py-0.5">
                <dt className="text-slate-500">{words(k)}</dt>
                <dd className="tabular-nums text-slate-800">{typeof v === "number" ? fmtCount(v) : String(v)}</dd>
              </div>
            ))}
          </dl>
        ) : null}
        {r.warnings.length ? (
          <ul className="space-y-2" data-testid="quality-warnings">
            {r.warnings.map((w) => (
              <li key={w.code} className="rounded-md border border-amber-200 bg-amber-50/60">
                <details>
                  <summary className="flex cursor-pointer flex-wrap items-baseline gap-2 px-3 py-2 text-sm">
                    <span aria-hidden className="text-amber-600">
                      ⚠
                    </span>
                    <span className="font-medium text-amber-900">{w.message}</span>
                    <code className="rounded bg-white px-1 text-[11px] text-amber-800 ring-1 ring-amber-200">{w.code}</code>
                    <span className="ml-auto text-xs tabular-nums text-amber-800">×{fmtCount(w.count)}</span>
                  </summary>
                  {w.examples?.length ? (
                    <ul className="space-y-1 border-t border-amber-200 px-3 py-2 text-xs">
                      {w.examples.map((e, i) => (
                        <li key={i} className="break-all font-mono text-slate-700">
                          {e}
                        </li>
                      ))}
                      {w.count > w.examples.length ? (
                        <li className="text-slate-500">… and {fmtCount(w.count - w.examples.length)} more</li>
                      ) : null}
                    </ul>
                  ) : null}
                </details>
              </li>
            ))}
          </ul>
        ) : null}
        {r.unrecognised?.length ? (
          <details className="text-sm">
            <summary className="cursor-pointer text-slate-700">
              {r.unrecognised.length} unrecognised key{r.unrecognised.length === 1 ? "" : "s"} (kept as published)
            </summary>
            <ul className="mt-2 flex flex-wrap gap-1">
              {r.unrecognised.map((k) => (
                <li key={k}>
                  <code className="rounded bg-slate-100 px-1.5 py-0.5 text-xs text-slate-700">{k}</code>
                </li>
              ))}
            </ul>
          </details>
        ) : null}
      </div>
    </section>
  );
}
