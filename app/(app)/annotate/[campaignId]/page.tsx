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
    <AnnotateQueue
      campaignName={queue.campaign.name}
      guidelinesVersion={queue.campaign.guidelinesVersion}
      guidelines={queue.campaign.guidelines.trim() ? <Guidelines text={queue.campaign.guidelines} /> : null}
      entries={queue.entries}
      resumeAt={queue.resumeAt}
    />
  );
}
