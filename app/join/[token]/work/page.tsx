import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { getDb } from "@/db/client";
import { requireParticipant } from "@/lib/auth/participant";
import { participantScreen } from "@/lib/annotation/participants";
import { AnnotateQueue } from "@/components/annotation/AnnotateQueue";
import { Guidelines } from "@/components/annotation/Guidelines";

export const metadata: Metadata = { title: "Study" };
export const dynamic = "force-dynamic";

/**
 * A participant's work: only a participant of this link (checked here, server-side, on every request);
 * each visit serves their held item or the next one. Out of work: the finish page.
 */
export default async function WorkPage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const { user, participant } = await requireParticipant(token);
  const s = participantScreen(getDb(), user.id, token, participant);
  if (s.screen === "finished") redirect(`/join/${token}/done`);
  if (s.screen !== "work")
    return (
      <div className="mx-auto max-w-xl px-4 py-10 text-center" data-testid="no-work">
        <h1 className="text-lg font-semibold text-slate-900">{s.screen === "closed" ? "This study is closed" : "No work left"}</h1>
        <p className="mt-2 text-sm text-slate-600">
          {s.screen === "closed"
            ? "The researchers have closed this study. Nothing you did is lost."
            : "Every item already has all the answers it needs, so there is nothing for you to do. Please return the study on Prolific; you have not been charged any time."}
        </p>
      </div>
    );
  const q = s.queue;
  return (
    <div>
      {/* The height of the app's top bar, which the queue's sticky header sits under. */}
      <header className="sticky top-0 z-20 flex h-12 items-center gap-2 border-b border-slate-200 bg-white px-4 text-sm font-semibold">
        <span className="grid h-6 w-6 place-items-center rounded bg-indigo-600 text-xs text-white">P</span>
        Study
      </header>
      <div className="p-4 md:p-6">
        <AnnotateQueue
          campaignName={q.campaign.name}
          guidelinesVersion={q.campaign.guidelinesVersion}
          guidelines={q.campaign.guidelines.trim() ? <Guidelines text={q.campaign.guidelines} /> : null}
          entries={q.entries}
          resumeAt={q.resumeAt}
          nextUrl={`/join/${token}/work`}
          nextApi={`/api/join/${token}/next`}
        />
      </div>
    </div>
  );
}
