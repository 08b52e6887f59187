/** One campaign on the agreement dashboard: progress, the report's age, a row per dimension, warnings. */
import Link from "next/link";
import { noComparisonText, type DashboardCampaign, type DashboardStat } from "@/lib/annotation/agreement-dashboard";
import { landisKochReading, TOO_FEW_TEXT, tooFewItems, tooFewNote } from "@/lib/agreement/interpret";
import { StatValue, fmt } from "@/components/annotation/AgreementView";
import { AgreementWarnings } from "@/components/annotation/AgreementWarnings";
import { ReportAge } from "@/components/annotation/ReportAge";

function WithInterval({ s, testId }: { s: DashboardStat; testId: string }) {
  // Too few items: the estimate, n and a note; no interval and no Landis–Koch word (issue 44.4).
  const few = s.value !== null && tooFewItems(s.n);
  return (
    <span data-testid={testId}>
      <StatValue value={s.value} reason={s.reason} />
      {s.value !== null && !few ? <span className="ml-1 text-xs text-slate-600">{landisKochReading(s.value, s.ci, s.n)}</span> : null}
      {few ? (
        <span className="block text-xs text-slate-600">{tooFewNote(s.n)}</span>
      ) : s.ci ? (
        <span className="block text-xs text-slate-500">
          [{fmt(s.ci[0])}, {fmt(s.ci[1])}] · n = {s.n}
        </span>
      ) : (
        <span className="block text-xs text-slate-500">n = {s.n}</span>
      )}
    </span>
  );
}

export function CampaignAgreementCard({ c }: { c: DashboardCampaign }) {
  const pct = c.progress.assignments ? Math.round((100 * c.progress.done) / c.progress.assignments) : 0;
  return (
    <section className="rounded-lg border border-slate-200 bg-white p-4" data-testid={`agreement-campaign-${c.id}`}>
      <div className="mb-2 flex flex-wrap items-baseline gap-x-4 gap-y-1">
        <Link className="font-semibold text-indigo-700 hover:underline" href={`/campaigns/${c.id}`}>
          {c.name}
        </Link>
        <span className="text-xs text-slate-500">
          {c.kindLabel} · created {new Date(c.createdAt).toISOString().slice(0, 10)}
        </span>
        <span className="flex items-center gap-2 text-xs text-slate-600" data-testid={`agreement-progress-${c.id}`}>
          <span className="inline-block h-1.5 w-28 overflow-hidden rounded bg-slate-100">
            <span className="block h-full bg-indigo-500" style={{ width: `${pct}%` }} />
          </span>
          {c.progress.done} / {c.progress.assignments} labelled ({pct}%){c.progress.skipped ? ` · ${c.progress.skipped} skipped` : ""}
        </span>
        {c.bestMargins.length ? (
          <span className="text-xs text-slate-600" data-testid={`agreement-best-margin-${c.id}`}>
            best tie margin: {c.bestMargins.map((b) => `${b.run} ${b.margin === null ? "— (no scores)" : b.margin.toFixed(2)}`).join(" · ")}
          </span>
        ) : null}
        <ReportAge ageMs={c.report.ageMs} current={c.report.current} error={c.report.error} testId={`agreement-age-${c.id}`} />
      </div>
      {c.dimensions.length === 0 ? (
        <p className="text-sm text-slate-500">{c.report.ageMs === null ? "Computing…" : "No dimension."}</p>
      ) : (
        <table className="w-full text-sm">
          <thead className="text-left text-xs text-slate-500">
            <tr>
              <th className="p-1.5">Dimension</th>
              <th className="p-1.5">Fleiss&apos; κ [95% CI]</th>
              <th className="p-1.5">Krippendorff&apos;s α [95% CI]</th>
              <th className="p-1.5">Agreement</th>
              <th className="p-1.5">Judge vs humans: Cohen&apos;s κ [95% CI]</th>
            </tr>
          </thead>
          <tbody>
            {c.dimensions.map((d) => (
              <tr key={d.key} className="border-t border-slate-100 align-top">
                <td className="p-1.5">{d.title}</td>
                <td className="p-1.5 tabular-nums">
                  <WithInterval s={d.fleiss} testId={`agreement-fleiss-${c.id}-${d.key}`} />
                  {d.fleiss.n < d.fleiss.ofItems && d.fleiss.n > 0 ? (
                    <span className="block text-xs text-slate-500">of {d.fleiss.ofItems} items (complete ones)</span>
                  ) : null}
                </td>
                <td className="p-1.5 tabular-nums">
                  <WithInterval s={d.alpha} testId={`agreement-alpha-${c.id}-${d.key}`} />
                </td>
                <td className="p-1.5 tabular-nums">{d.percentAgreement === null ? "—" : `${Math.round(d.percentAgreement * 100)}%`}</td>
                <td className="p-1.5 text-xs tabular-nums" data-testid={`agreement-judges-${c.id}-${d.key}`}>
                  {d.judges.length === 0 ? (
                    <span className="text-slate-500">{noComparisonText(c.judgeRuns)}</span>
                  ) : (
                    d.judges.map((j) => (
                      <div key={j.run.id} className="mb-1">
                        <span className="text-slate-600">{j.run.name}</span>
                        {c.judgeRuns.find((r) => r.id === j.run.id)?.state === "paused" ? (
                          <span className="text-amber-700"> (paused)</span>
                        ) : null}{" "}
                        <StatValue value={j.cohen.value} reason={j.cohen.reason} />
                        {j.cohen.value !== null && tooFewItems(j.n) ? (
                          <span className="text-slate-600"> {TOO_FEW_TEXT}</span>
                        ) : j.cohen.ci ? (
                          <span className="text-slate-500">
                            {" "}
                            [{fmt(j.cohen.ci[0])}, {fmt(j.cohen.ci[1])}]
                          </span>
                        ) : null}
                        <span className="text-slate-500">
                          {" "}
                          · n = {j.n}
                          {j.method === "table11" ? `, ${j.droppedTies ?? 0} ties dropped` : ""}
                        </span>
                      </div>
                    ))
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <div className="mt-2">
        <AgreementWarnings warnings={c.warnings} titles={Object.fromEntries(c.dimensions.map((d) => [d.key, d.title]))} />
      </div>
    </section>
  );
}
