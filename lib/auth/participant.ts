import "server-only";
import { forbidden, redirect } from "next/navigation";
import { getDb } from "@/db/client";
import type { PublicUser } from "@/lib/users/users";
import { ForbiddenError } from "@/lib/errors";
import { participantForToken, type ParticipantRow } from "@/lib/annotation/participants/join";
import { currentUser } from "./session";

/**
 * For a study link's pages (app/join/[token]/...): no session → back to the link (which signs the
 * participant in again from their browser); any other role, or a participant of another link → 403.
 */
export async function requireParticipant(token: string): Promise<{ user: PublicUser; participant: ParticipantRow }> {
  const user = await currentUser();
  if (!user) redirect(`/join/${encodeURIComponent(token)}`);
  if (user.role !== "participant") forbidden();
  try {
    return { user, participant: participantForToken(getDb(), user.id, token) };
  } catch (e) {
    if (e instanceof ForbiddenError) forbidden();
    throw e;
  }
}
