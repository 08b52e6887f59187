import { NextResponse } from "next/server";
import { getDb } from "@/db/client";
import { withRole } from "@/lib/auth/session";
import { presentAssignment, saveDraft, skipAssignment, submitLabels } from "@/lib/annotation";
import { whileBusy } from "@/lib/db-busy";
import { assertParticipantMayWrite } from "@/lib/annotation/participants/join";
import { InvalidInputError } from "@/lib/errors";
import { readJsonBody } from "@/lib/http/request";

export const dynamic = "force-dynamic";

type Ctx = { params: Promise<{ assignmentId: string }> };
/** Participants too: every function below only touches the caller's own assignments. */
const ALL = ["admin", "researcher", "annotator", "participant"] as const;

/** A draft or a submission is small (see MAX_DRAFT_BYTES): a larger body is refused before it is read. */
const MAX_BODY_BYTES = 512 * 1024;

async function body(req: Request): Promise<Record<string, unknown>> {
  const b = await readJsonBody(req, MAX_BODY_BYTES);
  if (typeof b !== "object" || b === null || Array.isArray(b)) throw new InvalidInputError("expected a JSON object");
  return b as Record<string, unknown>;
}

/** GET → the signed-in user's own assignment, blinded (someone else's is a 404). */
export const GET = withRole<Ctx>([...ALL], async (_req, { params, user }) => {
  return NextResponse.json(presentAssignment(getDb(), user.id, Number((await params).assignmentId)));
});

/** PATCH {draft, ms} → autosave. */
export const PATCH = withRole<Ctx>([...ALL], async (req, { params, user }) => {
  const b = await body(req);
  const id = Number((await params).assignmentId);
  // Not refused for a finished participant: the page's last debounced autosave can land after their
  // final submit. A draft changes no label.
  await whileBusy(() => saveDraft(getDb(), user.id, id, b.draft, b.ms));
  return NextResponse.json({ ok: true });
});

/** POST {action: "submit", submissionId, values, comments, ms, guidelineVersion} or {action: "skip", reason, ms}. */
export const POST = withRole<Ctx>([...ALL], async (req, { params, user }) => {
  const b = await body(req);
  const id = Number((await params).assignmentId);
  assertParticipantMayWrite(getDb(), user.id, user.role);
  if (b.action === "skip") {
    await whileBusy(() => skipAssignment(getDb(), user.id, id, b.reason, b.ms));
    return NextResponse.json({ ok: true });
  }
  if (b.action !== "submit") throw new InvalidInputError('action: expected "submit" or "skip"');
  // A submission is idempotent (its submissionId): trying it again while an import holds the lock is safe.
  const r = await whileBusy(() =>
    submitLabels(getDb(), user.id, id, {
      submissionId: b.submissionId as string,
      values: b.values as Record<string, string>,
      comments: b.comments as Record<string, string> | undefined,
      ms: b.ms as number | undefined,
      guidelineVersion: b.guidelineVersion,
    }),
  );
  return NextResponse.json({ ok: true, duplicate: r.duplicate });
});
