import type { Metadata } from "next";
import { getDb } from "@/db/client";
import { requireRole } from "@/lib/auth/session";
import { orNotFound } from "@/app/(app)/or-not-found";
import { myQueue } from "@/lib/annotation";
import { AnnotateQueue } from "@/components/annotation/AnnotateQueue";
import { Guidelines } from "@/components/annotation/Guidelines";

export const metadata: Metadata = { title: "Annotate" };
export const dynamic = "force-dynamic";

export default async function QueuePage({ params }: { params: Promise<{ campaignId: string }> }) {
  const user = await requireRole("admin", "researcher", "annotator");
  const campaignId = Number((await params).campaignId);
  const queue = orNotFound(() => myQueue(getDb(), user.id, campaignId));
  return (
    <div className="space-y-3">
      <AnnotateQueue campaignName={queue.campaign.name} entries={queue.entries} resumeAt={queue.resumeAt} />
      <details className="rounded-lg border border-slate-200 bg-white p-3">
        <summary className="cursor-pointer text-sm font-medium">Guidelines</summary>
        <div className="mt-2">
          <Guidelines text={queue.campaign.guidelines} />
        </div>
      </details>
    </div>
  );
}
