import type { Metadata } from "next";
import { getDb } from "@/db/client";
import { requireRole } from "@/lib/auth/session";
import { assignableUsers, CAMPAIGN_KIND_DEFS, PAPER_SAMPLE } from "@/lib/annotation";
import { listDatasets } from "@/lib/datasets/palset/queries";
import { PageHeader } from "@/components/shell/PageHeader";
import { CampaignForm } from "@/components/annotation/CampaignForm";
import { experimentSourceChoices } from "@/lib/annotation/experiment-items";
import { methodChoices } from "@/lib/experiments/method-choices";

export const metadata: Metadata = { title: "New campaign" };
export const dynamic = "force-dynamic";

export default async function NewCampaignPage() {
  await requireRole("admin", "researcher");
  const db = getDb();
  return (
    <>
      <PageHeader title="New campaign" subtitle="Items, annotators, k annotations per item, guidelines." />
      <CampaignForm
        kinds={CAMPAIGN_KIND_DEFS.map((k) => ({
          kind: k.kind,
          label: k.label,
          description: k.description,
          sources: k.sources,
          example: k.uploadExample ?? null,
          guidelines: k.defaultGuidelines,
          annotatorTitle: k.annotatorTitle,
          sideNames: Object.values(k.sideNames ?? {}),
          tieRule: k.defaultTieRule,
        }))}
        datasets={listDatasets(db)
          .filter((d) => d.kind === "palset")
          .map((d) => ({ id: d.id, name: d.name }))}
        users={assignableUsers(db)}
        paperSample={PAPER_SAMPLE}
        experiments={experimentSourceChoices(db)}
        methodLabels={Object.fromEntries(methodChoices(db).map((m) => [m.name, m.label]))}
      />
    </>
  );
}
