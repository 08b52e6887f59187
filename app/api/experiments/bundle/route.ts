import { getDb } from "@/db/client";
import { withRole } from "@/lib/auth/session";
import { BUNDLE_MEDIA_TYPE, importUploadedBundle } from "@/lib/bundles/web";

export const dynamic = "force-dynamic";

/**
 * POST a bundle file as the body (content-type application/vnd.pal-bundle, `?name=` its file name) → the run is imported (lib/bundles/import.ts)
 * and `{experiment: {id}, alreadyImported}` answered; a bad file or a missing data set is a 4xx naming it.
 */
export const POST = withRole(
  ["admin", "researcher"],
  async (req, { user }) => {
    const name = new URL(req.url).searchParams.get("name") ?? "upload";
    const r = await importUploadedBundle(getDb(), req.body, name, user.id);
    return Response.json({ experiment: { id: r.experimentId }, alreadyImported: r.alreadyImported });
  },
  // Its own media type (the page sets it): a cross-site form cannot send it without a preflight.
  { accepts: [BUNDLE_MEDIA_TYPE] },
);
