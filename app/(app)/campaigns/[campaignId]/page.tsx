import type { Metadata } from "next";
import { getDb } from "@/db/client";
import { requireRole } from "@/lib/auth/session";
import { orNotFound } from "@/app/(app)/or-not-found";
import { annotatorProgress, campaignDimensionsOf, campaignSystemsOf, getCampaign, itemsOverview, kindDef } from "@/lib/annotation";
import { agreementSnapshot } from "@/lib/annotation/agreement-cache";
import { campaignExperimentId, experimentsWithPairwiseResults, withBestMargin } from "@/lib/annotation/calibration";
import { choiceKey } from "@/lib/annotation/judge-views";
import { listKey, showLists } from "@/lib/annotation/judge-item-lists";
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
import { envValue } from "@/lib/config";
import { ParticipantsSection } from "@/components/annotation/campaign/ParticipantsSection";
import { crowdSettingsOf, qualitySnapshot } from "@/lib/annotation/participants";
import { applyTieMarginAction, excludeParticipantAction, setStatusAction } from "../actions";

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
  // The judge tables come from it too (lib/annotation/judge-views.ts): the page only picks the choice asked for.
  const agreement = agreementSnapshot(db, id);
  const views = agreement.report?.judgeViews ?? null;
  const systems = campaignSystemsOf(db, id);
  const criterion: CalibrationCriterion = sp.criterion && sp.criterion in CRITERIA ? (sp.criterion as CalibrationCriterion) : "cohen-plain";
  const choice = choiceKey(humans, variant);
  const vs = def.pairwise ? (views?.table11[choice] ?? []) : [];
  const calibrations = (views?.calibration[choice] ?? []).map((cal) => withBestMargin(cal, criterion));
  const ratingVs = def.pairwise ? [] : (views?.ratings ?? []);
  // Each run's disagreements: a few items each, one list opened a page at a time; titles read for those alone.
  const lists = showLists(
    db,
    id,
    new Map([
      ...vs.flatMap((v) => v.dimensions.map((d) => [listKey(v.run.id, d.dimension), d.disagreements] as const)),
      ...ratingVs.flatMap((v) => v.dimensions.map((d) => [listKey(v.run.id, d.dimension), d.disagreements] as const)),
    ]),
    sp.list ? { key: sp.list, page: Number(sp.listPage) || 1 } : undefined,
  );
  const onlyDisagreements = sp.items === "disagreements";
  const q = (o: CampaignSearch) =>
    `?${new URLSearchParams({ variant, humans, criterion, ...(onlyDisagreements ? { items: "disagreements" } : {}), ...o } as Record<string, string>)}`;
  return (
    <div className="space-y-5">
      <CampaignHeader campaign={c} kindLabel={def.label} systems={systems} setStatus={setStatusAction} />
      {c.joinToken ? (
        <ParticipantsSection
          campaignId={id}
          link={`${envValue("NEXTAUTH_URL") ?? ""}/join/${c.joinToken}`}
          perItem={c.perItem}
          settings={crowdSettingsOf(c.crowd)}
          // The cached table (computed in the background, never here), shown with its age.
          snapshot={qualitySnapshot(db, id)}
          exclude={excludeParticipantAction}
        />
      ) : null}
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
        snapshot={agreement}
        hasRuns={vs.length + ratingVs.length > 0}
        humans={humans}
        variant={variant}
        criterion={criterion}
        vs={vs}
        calibrations={calibrations}
        targets={calibrations.length ? experimentsWithPairwiseResults(db) : []}
        ownExperiment={campaignExperimentId(db, id)}
        ratingVs={ratingVs}
        lists={lists}
        fig2={views?.figure2 ?? []}
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
