import type { Metadata } from "next";
import Link from "next/link";
import { getDb } from "@/db/client";
import { requireRole } from "@/lib/auth/session";
import { orNotFound } from "@/app/(app)/or-not-found";
import { campaignDimensionsOf, getCampaign, kindDef } from "@/lib/annotation";
import { adjudicationQueue } from "@/lib/annotation/adjudication";
import { PageHeader } from "@/components/shell/PageHeader";
import { ReportAge } from "@/components/annotation/ReportAge";
import { AdjudicationQueue } from "@/components/annotation/campaign/AdjudicationQueue";
import { adjudicateAction } from "../../actions";

export const metadata: Metadata = { title: "Adjudicate" };
export const dynamic = "force-dynamic";

/** The PI's queue of items to decide, most disagreement first (researchers and admins only). */
export default async function AdjudicatePage({
  params,
  searchParams,
}: {
  params: Promise<{ campaignId: string }>;
  searchParams: Promise<{ page?: string }>;
}) {
  await requireRole("admin", "researcher");
  const db = getDb();
  const id = Number((await params).campaignId);
  const c = orNotFound(() => getCampaign(db, id));
  const queue = adjudicationQueue(db, id, Number((await searchParams).page) || 1);
  return (
    <div className="space-y-4">
      <PageHeader
        title={`${c.name} · adjudication`}
        subtitle={
          <span className="flex flex-wrap gap-3">
            <Link className="text-indigo-700" href={`/campaigns/${id}`}>
              ← campaign
            </Link>
            <span>
              {queue.total} item{queue.total === 1 ? "" : "s"} with disagreeing labels
            </span>
            {/* Polls only until the first order exists: a refresh must not move the cards under a PI's form. */}
            {queue.pending ? <ReportAge ageMs={null} current={false} /> : null}
          </span>
        }
      />
      <AdjudicationQueue
        campaignId={id}
        kind={c.kind}
        pairwise={kindDef(c.kind).pairwise}
        queue={queue}
        dims={campaignDimensionsOf(db, id)}
        adjudicate={adjudicateAction}
      />
    </div>
  );
}
