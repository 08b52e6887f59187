/**
 * A pairwise-dialogue judge run's tie-margin calibration: the chart, and a form that applies the chosen
 * margin to an experiment's pairwise results. The apply action comes from the page (components never
 * import app/).
 */
import Link from "next/link";
import { CRITERIA, type CalibrationCriterion } from "@/lib/agreement";
import type { TieMarginCalibration, experimentsWithPairwiseResults } from "@/lib/annotation/calibration";
import { TieMarginChart } from "@/components/annotation/TieMarginChart";
import type { CampaignQuery } from "./query";

export function TieMarginCalibrationView({
  campaign,
  cal,
  criterion,
  targets,
  ownExperiment,
  q,
  applyTieMargin,
}: {
  campaign: { id: number; name: string };
  cal: TieMarginCalibration;
  criterion: CalibrationCriterion;
  /** The experiments with pairwise dialogue results the margin can be applied to. */
  targets: ReturnType<typeof experimentsWithPairwiseResults>;
  /** The experiment the campaign was sampled from, if any (the default target). */
  ownExperiment: number | null;
  q: CampaignQuery;
  applyTieMargin: (form: FormData) => Promise<void>;
}) {
  return (
    <div className="space-y-2 rounded border border-slate-200 p-3">
      <h3 className="font-medium">Tie-margin calibration: {cal.run.name}</h3>
      <p className="text-xs text-slate-500">
        The judge&apos;s six stored judgments per item are re-aggregated at each margin (a tie when |mean A − mean B| ≤ margin) and compared
        with the humans ({cal.humans}; ties dropped when {cal.variant === "both" ? "both" : "either"} call a tie). No model is called. Best
        margin by{" "}
        {Object.entries(CRITERIA).map(([k, c], i) => (
          <span key={k}>
            {i ? " / " : ""}
            <Link className={criterion === k ? "font-semibold text-slate-700" : "text-indigo-700"} href={q({ criterion: k })}>
              {c.label}
            </Link>
          </span>
        ))}
        , averaged over the dimensions; the smaller margin on equal values.
      </p>
      {cal.reason ? (
        <p className="text-sm text-slate-600" data-testid={`calibration-reason-${cal.run.id}`}>
          No calibration: {cal.reason}.
        </p>
      ) : (
        <>
          <TieMarginChart cal={cal} />
          {/* Without a best margin (every kappa undefined, e.g. a judge with one verdict throughout) a margin can still be applied by hand. */}
          {cal.dimensions.length ? (
            <form action={applyTieMargin} className="flex flex-wrap items-center gap-2 text-sm" data-testid="apply-margin">
              <input type="hidden" name="campaignId" value={campaign.id} />
              <input
                type="hidden"
                name="source"
                value={`campaign “${campaign.name}”, ${cal.run.name}, ${cal.best !== null ? `best by ${CRITERIA[criterion].label}` : "chosen by hand"}`}
              />
              <label className="text-xs text-slate-600">
                Margin{" "}
                <select
                  name="margin"
                  defaultValue={String(cal.best ?? cal.run.margin ?? 0)}
                  className="rounded border border-slate-300 px-1 py-0.5"
                  aria-label="Margin to apply"
                >
                  {(cal.dimensions[0]?.curve ?? []).map((p) => (
                    <option key={p.margin} value={String(p.margin)}>
                      {p.margin.toFixed(2)}
                      {p.margin === cal.best ? " (best)" : ""}
                    </option>
                  ))}
                </select>
              </label>
              {targets.length ? (
                <>
                  <label className="text-xs text-slate-600">
                    to the pairwise results of{" "}
                    <select
                      name="experimentId"
                      defaultValue={String(ownExperiment ?? targets[0].id)}
                      className="rounded border border-slate-300 px-1 py-0.5"
                      aria-label="Experiment"
                    >
                      {targets.map((e) => (
                        <option key={e.id} value={e.id}>
                          #{e.id} {e.name}
                          {e.margin !== null ? ` (now margin ${e.margin})` : ""}
                        </option>
                      ))}
                    </select>
                  </label>
                  <button className="rounded bg-indigo-600 px-3 py-1 text-white">Apply margin</button>
                  <span className="text-xs text-slate-500" data-testid="applied-margins">
                    {targets
                      .filter((e) => e.margin !== null)
                      .map((e) => `#${e.id} reads W/T/L at margin ${e.margin}`)
                      .join(" · ") || "no experiment has an applied margin"}
                  </span>
                </>
              ) : (
                <span className="text-xs text-slate-500">No experiment has pairwise dialogue results to apply it to yet.</span>
              )}
            </form>
          ) : null}
        </>
      )}
    </div>
  );
}
