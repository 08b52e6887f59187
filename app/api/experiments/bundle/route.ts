import { getDb } from "@/db/client";
import { withRole } from "@/lib/auth/session";
import { importUploadedBundle } from "@/lib/bundles/web";

export const dynamic = "force-dynamic";

/**
 * POST a bundle file as the body (`?name=` its file name) → the run is imported (lib/bundles/import.ts)
 * and `{experiment: {id}, alreadyImported}` answered; a bad file or a missing data set is a 4xx naming it.
 */
export const POST = withRole(["admin", "researcher"], async (req, { user }) => {
  const name = new URL(req.url).searchParams.get("name") ?? "upload";
  const r = await importUploadedBundle(getDb(), req.body, name, user.id);
  return Response.json({ experiment: { id: r.experimentId }, alreadyImported: r.alreadyImported });
});
