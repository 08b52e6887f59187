import type { Metadata } from "next";
import { notFound, redirect } from "next/navigation";
import { getDb } from "@/db/client";
import { currentUser } from "@/lib/auth/session";
import { isAppError } from "@/lib/errors";
import { campaignByToken, participantOf } from "@/lib/annotation/participants";
import { JoinStart } from "@/components/annotation/participants/JoinStart";
import { Guidelines } from "@/components/annotation/Guidelines";

export const metadata: Metadata = { title: "Study", robots: { index: false } };
export const dynamic = "force-dynamic";

type Search = { PROLIFIC_PID?: string; STUDY_ID?: string; SESSION_ID?: string };
const one = (v: unknown) => (typeof v === "string" && v.length <= 64 ? v : null);

/**
 * A study link, open to anyone who has it: the guidelines, consent, then Start. A participant of this
 * link already signed in (with the same PID, or none in the link) goes straight on to their work.
 */
export default async function JoinPage({ params, searchParams }: { params: Promise<{ token: string }>; searchParams: Promise<Search> }) {
  const { token } = await params;
  const q = await searchParams;
  const db = getDb();
  let c;
  try {
    c = campaignByToken(db, token);
  } catch (e) {
    if (isAppError(e)) notFound();
    throw e;
  }
  const pid = one(q.PROLIFIC_PID);
  const user = await currentUser();
  if (user?.role === "participant") {
    const p = participantOf(db, user.id);
    if (p && p.joinToken === token && (!pid || pid === p.prolificPid)) redirect(`/join/${token}/work`);
  }
  if (c.status !== "open")
    return (
      <p className="mx-auto max-w-xl px-4 py-10 text-center text-sm text-slate-600">This study is closed. Thank you for your interest.</p>
    );
  return (
    <JoinStart
      token={token}
      pid={pid}
      studyId={one(q.STUDY_ID)}
      sessionId={one(q.SESSION_ID)}
      campaignName={c.name}
      guidelines={
        c.guidelines.trim() ? (
          <Guidelines text={c.guidelines} />
        ) : (
          <p className="text-sm text-slate-500">Label each item as asked on screen.</p>
        )
      }
      consent={c.settings.consent ? <Guidelines text={c.settings.consent} /> : null}
    />
  );
}
