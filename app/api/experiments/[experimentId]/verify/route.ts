import { getDb } from "@/db/client";
import { withRole } from "@/lib/auth/session";
import { idParam } from "@/lib/http/request";
import { cancelVerify, startVerify, verifyTaskOf } from "@/lib/bundles/web";

export const dynamic = "force-dynamic";

type Ctx = { params: Promise<{ experimentId: string }> };

/** GET: the verify task's status (`task`, null when none) and the run's latest verification (`verification`, its badge). */
export const GET = withRole<Ctx>(["admin", "researcher"], async (_req, { params }) => {
  const id = idParam((await params).experimentId, "experiment");
  return Response.json(verifyTaskOf(getDb(), id));
});

/** POST: starts `pal bundle verify ID` in the background (lib/bundles/tasks.ts); it stores the outcome on the run. */
export const POST = withRole<Ctx>(["admin", "researcher"], async (_req, { params, user }) => {
  const id = idParam((await params).experimentId, "experiment");
  startVerify(getDb(), id, user.id);
  return Response.json(verifyTaskOf(getDb(), id), { status: 202 });
});

/** DELETE: cancels a running verify (its process is stopped; nothing is recorded). */
export const DELETE = withRole<Ctx>(["admin", "researcher"], async (_req, { params }) => {
  const id = idParam((await params).experimentId, "experiment");
  cancelVerify(id);
  return Response.json(verifyTaskOf(getDb(), id));
});
