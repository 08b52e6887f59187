/** The agreement tables of one dimension (server component): overall values with CIs and readings, Cohen pairs, confusion. */
import type { DimensionAgreement } from "@/lib/annotation/agreement";
import { landisKochReading, TOO_FEW_TEXT, tooFewItems, tooFewNote } from "@/lib/agreement/interpret";
import { DistributionChart } from "./DistributionChart";

/** Annotators drawn as their own bar series at most. */
const MAX_SERIES = 8;
/** Pairs listed on the page at most (the export has every pair). */
const MAX_PAIRS = 40;

export const fmt = (x: number | null | undefined, d = 3) => (x === null || x === undefined ? "—" : x.toFixed(d));

/**
 * A statistic, or "—" with the reason it is undefined beside it (no items, one category only, ...):
 * a bare dash leaves the reader guessing whether it is zero, missing data or a bug.
 */
export function StatValue({
  value,
  reason,
  digits = 3,
  testId,
}: {
  value: number | null | undefined;
  reason?: string | null;
  digits?: number;
  testId?: string;
}) {
  if (value !== null && value !== undefined) return <span data-testid={testId}>{value.toFixed(digits)}</span>;
  return (
    <span data-testid={testId} title={reason ?? "not defined"}>
      —{" "}
      <span className="text-xs font-normal text-slate-500" data-testid={testId ? `${testId}-reason` : undefined}>
        ({reason ?? "not defined"})
      </span>
    </span>
  );
}

export function DimensionAgreementView({ d }: { d: DimensionAgreement }) {
  const r = d.report;
  const ci = r.bootstrap?.ci ?? {};
  const row = (name: string, key: "percentAgreement" | "fleissKappa" | "krippendorffAlpha", reading: boolean) => {
    // The n behind the statistic: below the minimum it stands alone, no interval, no word (issue 44.4).
    const n = key === "fleissKappa" ? r.fleissItems.used : (r.pairedItems ?? r.items);
    const few = r[key] !== null && tooFewItems(n);
    return (
      <tr className="border-t border-slate-100">
        <td className="p-1.5">{name}</td>
        <td className="p-1.5 tabular-nums" data-testid={`${d.dimension.key}-${key}`}>
          {fmt(r[key])}
        </td>
        <td className="p-1.5 tabular-nums text-slate-600" data-testid={`${d.dimension.key}-${key}-ci`}>
          {few ? tooFewNote(n) : ci[key] ? `[${fmt(ci[key]![0])}, ${fmt(ci[key]![1])}]` : "—"}
        </td>
        <td className="p-1.5 text-slate-600">
          {reading && !few ? (landisKochReading(r[key], ci[key], n) ?? r.reasons[key] ?? "") : (r.reasons[key] ?? "")}
          {key === "fleissKappa" && r.fleissItems && r.fleissItems.leftOut > 0 && r.fleissItems.used > 0 ? (
            <span className="block text-xs text-slate-500" data-testid={`${d.dimension.key}-fleiss-items`}>
              over {r.fleissItems.used} of {r.items} items (those with all {r.fleissItems.ratingsPerItem} ratings)
            </span>
          ) : null}
        </td>
      </tr>
    );
  };
  // With many annotators (30 make 435 pairs) most pairs share a few items: the page shows the pairs that share
  // the most, in a fold when there are many; every pair is in the export.
  const shared = r.cohen.map((p, i) => ({ p, i })).filter(({ p }) => p.n > 0);
  const pairs = [...shared].sort((a, b) => b.p.n - a.p.n || a.i - b.i).slice(0, MAX_PAIRS);
  const cats = d.dimension.categories.map((c) => c.value);
  return (
    <section className="rounded-lg border border-slate-200 bg-white p-4" data-testid={`agreement-${d.dimension.key}`}>
      <h3 className="font-semibold">{d.dimension.title}</h3>
      <p className="mb-2 text-xs text-slate-500">
        {d.labelledItems} items labelled · {r.raters.length} annotators · {d.dimension.scale}
        {d.mean !== null ? (
          <>
            {" "}
            · mean rating <b data-testid={`${d.dimension.key}-mean`}>{fmt(d.mean, 2)}</b>
          </>
        ) : null}
      </p>
      <div className="grid gap-4 lg:grid-cols-2">
        <div>
          <table className="w-full text-sm">
            <thead className="text-left text-xs text-slate-500">
              <tr>
                <th className="p-1.5">Statistic</th>
                <th className="p-1.5">Value</th>
                <th className="p-1.5">95% CI (bootstrap)</th>
                <th className="p-1.5">Reading</th>
              </tr>
            </thead>
            <tbody>
              {row("Percent agreement", "percentAgreement", false)}
              {row("Fleiss' kappa", "fleissKappa", true)}
              {row("Krippendorff's alpha", "krippendorffAlpha", true)}
            </tbody>
          </table>
          <details open={pairs.length <= 12} className="mt-3">
            <summary className="cursor-pointer text-xs font-semibold text-slate-600">
              Cohen&apos;s kappa per annotator pair
              {shared.length > pairs.length
                ? ` (the ${pairs.length} of ${shared.length} pairs sharing the most items; every pair is in the export)`
                : ` (${shared.length} ${shared.length === 1 ? "pair" : "pairs"} with shared items)`}
            </summary>
            <table className="w-full text-sm">
              <thead className="text-left text-xs text-slate-500">
                <tr>
                  <th className="p-1.5">Pair</th>
                  <th className="p-1.5">n</th>
                  <th className="p-1.5">κ</th>
                  {d.dimension.scale === "ordinal" ? (
                    <>
                      <th className="p-1.5">linear</th>
                      <th className="p-1.5">quadratic</th>
                    </>
                  ) : null}
                </tr>
              </thead>
              <tbody>
                {pairs.map(({ p, i }) => (
                  <tr key={p.raters.join()} className="border-t border-slate-100">
                    <td className="p-1.5 text-xs">
                      {p.raters[0]} × {p.raters[1]}
                    </td>
                    <td className="p-1.5 tabular-nums">{p.n}</td>
                    <td className="p-1.5 tabular-nums" data-testid={`${d.dimension.key}-cohen-${i}`}>
                      {p.kappa === null ? (
                        <StatValue value={null} reason={p.reasons?.kappa} />
                      ) : (
                        <>
                          {fmt(p.kappa)}{" "}
                          <span className="text-xs text-slate-600">
                            {tooFewItems(p.n) ? TOO_FEW_TEXT : (d.cohenInterpretation[i].kappa ?? "")}
                          </span>
                        </>
                      )}
                    </td>
                    {d.dimension.scale === "ordinal" ? (
                      <>
                        <td className="p-1.5 tabular-nums">
                          {p.linearWeightedKappa === null ? (
                            <StatValue value={null} reason={p.reasons?.linearWeightedKappa ?? p.reasons?.kappa} />
                          ) : (
                            fmt(p.linearWeightedKappa)
                          )}{" "}
                          <span className="text-xs text-slate-500">{d.cohenInterpretation[i].linear ?? ""}</span>
                        </td>
                        <td className="p-1.5 tabular-nums">
                          {p.quadraticWeightedKappa === null ? (
                            <StatValue value={null} reason={p.reasons?.quadraticWeightedKappa ?? p.reasons?.kappa} />
                          ) : (
                            fmt(p.quadraticWeightedKappa)
                          )}{" "}
                          <span className="text-xs text-slate-500">{d.cohenInterpretation[i].quadratic ?? ""}</span>
                        </td>
                      </>
                    ) : null}
                  </tr>
                ))}
              </tbody>
            </table>
          </details>
          <p className="mt-2 text-xs text-slate-500">
            Majority vote, split votes: <b>{d.majority.tieRule}</b>.
          </p>
        </div>
        <div>
          {/* Beyond a handful of annotators one bar each is unreadable (and heavy to draw): the pooled counts then. */}
          <DistributionChart
            categories={cats}
            perRater={
              Object.keys(d.perRater).length <= MAX_SERIES
                ? d.perRater
                : { [`all ${Object.keys(d.perRater).length} annotators`]: d.distribution }
            }
          />
          <h4 className="mt-2 text-xs font-semibold text-slate-600">
            Each annotator against the majority (rows: annotator, columns: majority)
          </h4>
          <div className="flex flex-wrap gap-3">
            {d.confusion.map((m) => (
              <table key={m.rater} className="text-xs">
                <caption className="text-left text-slate-500">{m.rater}</caption>
                <thead>
                  <tr>
                    <th />
                    {cats.map((c) => (
                      <th key={c} className="px-1">
                        {c}
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody>
                  {m.counts.map((rowCounts, i) => (
                    <tr key={i}>
                      <th className="px-1 text-left">{cats[i]}</th>
                      {rowCounts.map((n, j) => (
                        <td key={j} className={`px-1 text-center tabular-nums ${i === j ? "bg-emerald-50" : n ? "bg-rose-50" : ""}`}>
                          {n}
                        </td>
                      ))}
                    </tr>
                  ))}
                </tbody>
              </table>
            ))}
          </div>
        </div>
      </div>
    </section>
  );
}
