import type { Metadata } from "next";
import { getDb } from "@/db/client";
import { requireRole } from "@/lib/auth/session";
import { orNotFound } from "@/app/(app)/or-not-found";
import {
  annotatorProgress,
  campaignDimensionsOf,
  campaignSystemsOf,
  figure2,
  getCampaign,
  humanVsJudge,
  itemsOverview,
  kindDef,
  ratingVsJudge,
} from "@/lib/annotation";
import { judgeRunHasLabels, judgeRunsOf } from "@/lib/annotation/human-labels";
import { agreementSnapshot } from "@/lib/annotation/agreement-cache";
import { campaignExperimentId, experimentsWithPairwiseResults, tieMarginCalibration } from "@/lib/annotation/calibration";
import { CRITERIA, type CalibrationCriterion } from "@/lib/agreement";
import { judgeConfigChoices, judgeForKind, llmJudgeRuns } from "@/lib/annotation/llm-judge";
import { onBatchApiEndpoint } from "@/lib/llm/config";
import { CampaignHeader } from "@/components/annotation/campaign/CampaignHeader";
import { AnnotatorProgress } from "@/components/annotation/campaign/AnnotatorProgress";
import { AnnotatorAgreement } from "@/components/annotation/campaign/AnnotatorAgreement";
import { JudgesSection } from "@/components/annotation/campaign/JudgesSection";
import { ItemsOverview } from "@/components/annotation/campaign/ItemsOverview";
import { CampaignGuidelines } from "@/components/annotation/campaign/CampaignGuidelines";
import type { CampaignSearch } from "@/components/annotation/campaign/query";
import { applyTieMarginAction, setStatusAction } from "../actions";

export const metadata: Metadata = { title: "Campaign" };
export const dynamic = "force-dynamic";

/**
 * A campaign for its researchers: progress, agreement between annotators, judges against the humans,
 * every item. This page reads the figures (lib/annotation) and the URL's choices; the sections in
 * components/annotation/campaign/ lay them out, and get the page's server actions as props.
 */
export default async function CampaignPage({
  params,
  searchParams,
}: {
  params: Promise<{ campaignId: string }>;
  searchParams: Promise<CampaignSearch>;
}) {
  await requireRole("admin", "researcher");
  const db = getDb();
  const id = Number((await params).campaignId);
  const c = orNotFound(() => getCampaign(db, id));
  const sp = await searchParams;
  const variant = sp.variant === "either" ? "either" : "both";
  const humans = sp.humans === "adjudication" ? "adjudication" : "vote";
  const def = kindDef(c.kind);
  // The cached report (computed in the background, never here); asks for a fresh one when labels came since.
  const agreement = agreementSnapshot(db, id);
  const systems = campaignSystemsOf(db, id);
  // A run without a single verdict (every call failed) has nothing to compare: no empty Table 11 block.
  const runs = judgeRunsOf(db, id).filter((r) => judgeRunHasLabels(db, r.id));
  const criterion: CalibrationCriterion = sp.criterion && sp.criterion in CRITERIA ? (sp.criterion as CalibrationCriterion) : "cohen-plain";
  const calibrations =
    c.kind === "pairwise-dialogue" ? runs.map((r) => tieMarginCalibration(db, id, r.id, { variant, humans, criterion })) : [];
  const onlyDisagreements = sp.items === "disagreements";
  const q = (o: CampaignSearch) =>
    `?${new URLSearchParams({ variant, humans, criterion, ...(onlyDisagreements ? { items: "disagreements" } : {}), ...o } as Record<string, string>)}`;
  return (
    <div className="space-y-5">
      <CampaignHeader campaign={c} kindLabel={def.label} systems={systems} setStatus={setStatusAction} />
      <AnnotatorProgress campaignId={id} progress={annotatorProgress(db, id)} />
      <AnnotatorAgreement campaignId={id} snapshot={agreement} dims={campaignDimensionsOf(db, id)} />
      <JudgesSection
        campaign={c}
        def={def}
        systems={systems}
        judgeLabel={judgeForKind(c.kind).label}
        llmRuns={llmJudgeRuns(db, id)}
        judgeChoices={judgeConfigChoices(db)}
        batchApiChoices={judgeConfigChoices(db).filter((name) => onBatchApiEndpoint(db, name))}
        hasRuns={runs.length > 0}
        humans={humans}
        variant={variant}
        criterion={criterion}
        vs={def.pairwise ? runs.map((r) => humanVsJudge(db, id, r.id, { variant, humans })) : []}
        calibrations={calibrations}
        targets={calibrations.length ? experimentsWithPairwiseResults(db) : []}
        ownExperiment={campaignExperimentId(db, id)}
        ratingVs={def.pairwise ? [] : runs.map((r) => ratingVsJudge(db, id, r.id))}
        fig2={c.kind === "hicupid-ab" ? figure2(db, id) : []}
        q={q}
        applyTieMargin={applyTieMarginAction}
      />
      <ItemsOverview
        campaignId={id}
        overview={itemsOverview(db, id, { onlyDisagreements, page: Number(sp.itemsPage) || 1 })}
        dims={campaignDimensionsOf(db, id)}
        onlyDisagreements={onlyDisagreements}
        q={q}
      />
      <CampaignGuidelines text={c.guidelines} />
    </div>
  );
}
