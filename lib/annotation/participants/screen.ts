/**
 * What a participant's work page shows: their queue with the item served to them, the finish screen
 * with their code, an honest "no work left", or "closed". One call per page request, bounded work.
 */
import { and, count, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { assignments } from "@/db/schema";
import { myQueue, type MyQueue } from "../queue";
import { participantForToken, type ParticipantRow } from "./join";
import { nextWork } from "./serve";
import { finishParticipant } from "./quality";

export type ParticipantScreen =
  | { screen: "work"; queue: MyQueue }
  | { screen: "finished"; status: "completed" | "screened-out"; code: string | null }
  | { screen: "no-work" }
  | { screen: "closed" };

export function participantScreen(db: Db, userId: number, token: string, checked?: ParticipantRow): ParticipantScreen {
  // `checked`: the caller already has the participant for this token (requireParticipant), no second read.
  const p = checked?.userId === userId ? checked : participantForToken(db, userId, token);
  const w = nextWork(db, userId);
  if (w.state === "item") return { screen: "work", queue: myQueue(db, userId, p.campaignId) };
  if (w.state === "closed") return { screen: "closed" };
  if (w.state === "no-work") {
    const done = db
      .select({ n: count() })
      .from(assignments)
      .where(and(eq(assignments.annotatorId, userId), eq(assignments.status, "done")))
      .get()!.n;
    if (done === 0) return { screen: "no-work" };
  }
  // Quota reached, nothing left after some work, or decided before: the finish step gives the code.
  const f = finishParticipant(db, userId);
  return { screen: "finished", ...f };
}

/**
 * The queue's light call for its next item (app/api/join/[token]/next): the item served, or the page to
 * go to when there is none (the work page then shows the finish, "no work left" or "closed").
 */
export function serveNext(db: Db, userId: number, token: string): { assignmentId: number } | { url: string } {
  participantForToken(db, userId, token);
  const w = nextWork(db, userId);
  return w.state === "item" ? { assignmentId: w.assignmentId } : { url: `/join/${token}/work` };
}
