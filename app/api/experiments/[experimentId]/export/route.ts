import { getDb } from "@/db/client";
import { withRole } from "@/lib/auth/session";
import { exportExperiment } from "@/lib/experiments/export";
import { idParam } from "@/lib/http/request";

/**
 * `?format=csv|json|md|html`: the results table, the full results, or the case studies as Markdown or a
 * self-contained HTML figure; for the case studies `task`, `item`, `method`, `tag` and `q` narrow the list.
 */
export const GET = withRole<{ params: Promise<{ experimentId: string }> }>(["admin", "researcher"], async (req, { params }) => {
  const id = idParam((await params).experimentId, "experiment");
  const sp = new URL(req.url).searchParams;
  const filter = {
    task: sp.get("task") || undefined,
    itemKey: sp.get("item") || undefined,
    method: sp.get("method") || undefined,
    tag: sp.get("tag") || undefined,
    q: sp.get("q") || undefined,
  };
  const f = exportExperiment(getDb(), id, sp.get("format") ?? "json", filter);
  return new Response(f.body, {
    headers: { "content-type": f.contentType, "content-disposition": `attachment; filename="${f.filename}"` },
  });
});
