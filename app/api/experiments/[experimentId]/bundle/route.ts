import { getDb } from "@/db/client";
import { withRole } from "@/lib/auth/session";
import { idParam } from "@/lib/http/request";
import { exportTaskOf, startBundleExport } from "@/lib/bundles/web";

export const dynamic = "force-dynamic";

type Ctx = { params: Promise<{ experimentId: string }> };

/** `?data=1`: the bundle with the data set's rows. GET: the build's status (`{task: null}` never built). */
export const GET = withRole<Ctx>(["admin", "researcher"], async (req, { params }) => {
  const id = idParam((await params).experimentId, "experiment");
  return Response.json({ task: exportTaskOf(id, new URL(req.url).searchParams.get("data") === "1") });
});

/** POST: starts building the bundle in the background (lib/bundles/tasks.ts); the download serves it once ready. */
export const POST = withRole<Ctx>(["admin", "researcher"], async (req, { params }) => {
  const id = idParam((await params).experimentId, "experiment");
  const withData = new URL(req.url).searchParams.get("data") === "1";
  startBundleExport(getDb(), id, withData);
  return Response.json({ task: exportTaskOf(id, withData) }, { status: 202 });
});
