import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { getDb } from "@/db/client";
import { requireParticipant } from "@/lib/auth/participant";
import { participantScreen, prolificCompletionUrl } from "@/lib/annotation/participants";
import { FinishScreen } from "@/components/annotation/participants/FinishScreen";

export const metadata: Metadata = { title: "Study finished" };
export const dynamic = "force-dynamic";

/** The finish screen: the completion (or screen-out) code, then Prolific's completion URL. */
export default async function DonePage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const { user, participant } = await requireParticipant(token);
  const s = participantScreen(getDb(), user.id, token, participant);
  if (s.screen !== "finished") redirect(`/join/${token}/work`);
  const completed = s.status === "completed";
  // Only a study with a code sends the participant back to Prolific: without one, the page says so.
  const back = s.code ? " You will now be taken back to Prolific to record it." : " You can close this page.";
  return (
    <FinishScreen
      title={completed ? "Thank you, you are done" : "Thank you for your time"}
      message={
        completed ? `Your answers are saved.${back}` : `Your answers did not pass this study's checks, so the study ends here.${back}`
      }
      code={s.code}
      url={s.code ? prolificCompletionUrl(s.code) : null}
    />
  );
}
