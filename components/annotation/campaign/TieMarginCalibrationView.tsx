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
import { TieMarginApplyForm, type TieMarginAction } from "./TieMarginApplyForm";

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
  applyTieMargin: TieMarginAction;
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
            <TieMarginApplyForm
              action={applyTieMargin}
              campaignId={campaign.id}
              source={`campaign “${campaign.name}”, ${cal.run.name}, ${cal.best !== null ? `best by ${CRITERIA[criterion].label}` : "chosen by hand"}`}
              best={cal.best}
              initial={cal.best ?? cal.run.margin ?? 0}
              margins={(cal.dimensions[0]?.curve ?? []).map((p) => p.margin)}
              targets={targets.map((e) => ({ id: e.id, name: e.name, margin: e.margin }))}
              ownExperiment={ownExperiment}
            />
          ) : null}
        </>
      )}
    </div>
  );
}
