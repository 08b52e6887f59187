import { getDb } from "@/db/client";
import { withRole } from "@/lib/auth/session";
import { exportExperiment } from "@/lib/jobs/export";
import { idParam } from "@/lib/http/request";

/** `?format=csv|json|md`: the results table, the full results, or the case studies as Markdown. */
export const GET = withRole<{ params: Promise<{ experimentId: string }> }>(["admin", "researcher"], async (req, { params }) => {
  const id = idParam((await params).experimentId, "experiment");
  const f = exportExperiment(getDb(), id, new URL(req.url).searchParams.get("format") ?? "json");
  return new Response(f.body, {
    headers: { "content-type": f.contentType, "content-disposition": `attachment; filename="${f.filename}"` },
  });
});
