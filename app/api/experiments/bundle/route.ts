import { withRole } from "@/lib/auth/session";
import { BUNDLE_MEDIA_TYPE, cancelImport, importTaskOf, startUploadedImport } from "@/lib/bundles/web";

export const dynamic = "force-dynamic";

/**
 * POST a bundle file as the body (content-type application/vnd.pal-bundle, `?name=` its file name) → the file is saved and
 * imported in the background (lib/bundles/tasks.ts): `{task}`, the token whose status GET `?task=` answers
 * (`{task: {state, step, done, total, experimentId, alreadyImported, error}}`).
 */
export const POST = withRole(
  ["admin", "researcher"],
  async (req, { user }) => {
    const name = new URL(req.url).searchParams.get("name") ?? "upload";
    const task = await startUploadedImport(req.body, name, user.id);
    return Response.json({ task }, { status: 202 });
  },
  // Its own media type (the page sets it): a cross-site form cannot send it without a preflight.
  { accepts: [BUNDLE_MEDIA_TYPE] },
);

export const GET = withRole(["admin", "researcher"], async (req, { user }) => {
  const token = new URL(req.url).searchParams.get("task") ?? "";
  return Response.json({ task: importTaskOf(token, user) });
});

/** DELETE `?task=`: cancels a running import (its process is stopped; nothing is written) → `{task}`, now failed. */
export const DELETE = withRole(["admin", "researcher"], async (req, { user }) => {
  const token = new URL(req.url).searchParams.get("task") ?? "";
  return Response.json({ task: cancelImport(token, user) });
});
