/**
 * "Judges on the same items": run an LLM judge or import verdicts, then each run against the humans in
 * the campaign kind's terms (Table 11 and tie-margin calibration for pairwise dialogues, rating agreement,
 * Figure 2 for HiCUPID A/B). The figures come from the background agreement report (its age shown); this
 * section lays them out.
 */
import Link from "next/link";
import type { CalibrationCriterion } from "@/lib/agreement";
import type { CampaignKindDef } from "@/lib/annotation";
import type { AgreementSnapshot } from "@/lib/annotation/agreement-cache";
import type { TieMarginCalibration, experimentsWithPairwiseResults } from "@/lib/annotation/calibration";
import type { ShownList } from "@/lib/annotation/judge-item-lists";
import type { StoredRatingVsJudge, StoredTable11 } from "@/lib/annotation/judge-views";
import type { Figure2 } from "@/lib/annotation/verdict-import";
import { publishedTable11For } from "@/lib/annotation/published-table11";
import { ReportAge } from "@/components/annotation/ReportAge";
import type { llmJudgeRuns } from "@/lib/annotation/llm-judge";
import { JudgeImportForm } from "@/components/annotation/JudgeImportForm";
import { LlmJudgePanel } from "@/components/annotation/LlmJudgePanel";
import { JudgeVsHumans } from "./JudgeVsHumans";
import { TieMarginCalibrationView } from "./TieMarginCalibrationView";
import type { TieMarginAction } from "./TieMarginApplyForm";
import { RatingVsJudge } from "./RatingVsJudge";
import { Figure2Bars } from "./Figure2Bars";
import type { CampaignQuery } from "./query";

/**
 * One line of a verdicts file for this kind: pairwise kinds with their per-order judgments (scores for
 * both sides), a rating kind with a rating on its own scale and the judge's analysis.
 */
function verdictExample(def: CampaignKindDef): string {
  const d = def.dimensions[0];
  const last = d.categories[d.categories.length - 1].value;
  return def.pairwise
    ? `{"item": "<item id>", "dimension": "${d.key}", "verdict": "${d.categories[0].value}", "judgments": [{"order": "AB", "scoreA": 8, "scoreB": 6, "analysis": "..."}]}`
    : `{"item": "<item id>", "dimension": "${d.key}", "verdict": "${last}", "analysis": "..."}  (one of ${d.categories.map((c) => c.value).join(", ")})`;
}

export function JudgesSection(p: {
  campaign: { id: number; name: string; kind: string };
  def: CampaignKindDef;
  systems: { A?: string; B?: string };
  judgeLabel: string;
  llmRuns: ReturnType<typeof llmJudgeRuns>;
  judgeChoices: string[];
  /** The judge choices on an endpoint marked as serving the Batch API. */
  batchApiChoices: string[];
  /** The agreement report the tables come from (its age; none yet while it is first computed). */
  snapshot: AgreementSnapshot;
  /** Whether any run has a verdict (the vote / tie-variant choices show only then). */
  hasRuns: boolean;
  humans: "vote" | "adjudication";
  variant: "both" | "either";
  criterion: CalibrationCriterion;
  vs: StoredTable11[];
  calibrations: TieMarginCalibration[];
  targets: ReturnType<typeof experimentsWithPairwiseResults>;
  ownExperiment: number | null;
  ratingVs: StoredRatingVsJudge[];
  /** Each run's disagreements as shown, by lib/annotation/judge-item-lists.ts listKey. */
  lists: Map<string, ShownList>;
  fig2: Figure2[];
  q: CampaignQuery;
  applyTieMargin: TieMarginAction;
}) {
  const { campaign: c, def, systems, humans, variant, q } = p;
  const id = c.id;
  return (
    <section className="space-y-3 rounded-lg border border-slate-200 bg-white p-4">
      <div className="flex items-baseline gap-3">
        <h2 className="font-semibold">Judges on the same items</h2>
        <ReportAge
          ageMs={p.snapshot.ageMs}
          current={p.snapshot.current}
          error={p.snapshot.error}
          testId="judges-age"
          // The agreement section's age above already refreshes the page while a report is on its way.
          pollMs={3_600_000}
        />
      </div>
      <LlmJudgePanel
        campaignId={id}
        kind={c.kind}
        judgeLabel={p.judgeLabel}
        initialRuns={p.llmRuns}
        choices={p.judgeChoices}
        batchApiChoices={p.batchApiChoices}
      />
      <JudgeImportForm campaignId={id} />
      <p className="text-xs text-slate-500">
        JSONL, one verdict per line: <code data-testid="verdict-example">{verdictExample(def)}</code>
        {def.pairwise ? (
          <>
            {" "}
            — verdicts are for side A ({systems.A}); <code>{`"winner": "<system name>" | "Tie"`}</code> works too.
          </>
        ) : null}
      </p>
      {def.pairwise && p.hasRuns ? (
        <p className="text-sm">
          Humans by{" "}
          <Link className={humans === "vote" ? "font-semibold" : "text-indigo-700"} href={q({ humans: "vote" })}>
            vote
          </Link>{" "}
          /{" "}
          <Link className={humans === "adjudication" ? "font-semibold" : "text-indigo-700"} href={q({ humans: "adjudication" })}>
            adjudication
          </Link>
          {" · "}ties dropped when{" "}
          <Link className={variant === "both" ? "font-semibold" : "text-indigo-700"} href={q({ variant: "both" })}>
            both call a tie (Mem-PAL)
          </Link>{" "}
          /{" "}
          <Link className={variant === "either" ? "font-semibold" : "text-indigo-700"} href={q({ variant: "either" })}>
            either does (stricter)
          </Link>
        </p>
      ) : null}
      {p.snapshot.report && !p.snapshot.report.judgeViews ? (
        <p className="text-sm text-slate-600" data-testid="judges-pending">
          The judges&apos; tables are computed with the next agreement report.
        </p>
      ) : null}
      {p.vs.map((v) => (
        <JudgeVsHumans
          key={v.run.id}
          campaignId={id}
          v={v}
          humans={humans}
          variant={variant}
          systems={systems}
          lists={p.lists}
          q={q}
          published={publishedTable11For(c.kind, systems, { judgeModel: v.run.model, humans, variant })}
        />
      ))}
      {p.calibrations.map((cal) => (
        <TieMarginCalibrationView
          key={`cal-${cal.run.id}`}
          campaign={c}
          cal={cal}
          criterion={p.criterion}
          targets={p.targets}
          ownExperiment={p.ownExperiment}
          q={q}
          applyTieMargin={p.applyTieMargin}
        />
      ))}
      {p.ratingVs.map((v) => (
        <RatingVsJudge key={v.run.id} campaignId={id} v={v} lists={p.lists} q={q} />
      ))}
      {p.fig2.map((f) => (
        <Figure2Bars key={f.dimension} f={f} />
      ))}
    </section>
  );
}
