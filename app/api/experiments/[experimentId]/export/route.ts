import { getDb } from "@/db/client";
import { withRole } from "@/lib/auth/session";
import { exportExperiment } from "@/lib/experiments/export";
import { exportFigure, FIGURE_FORMATS } from "@/lib/experiments/figure4";
import { idParam } from "@/lib/http/request";

/**
 * `?format=csv|json|md|html`: the results table, the full results, or the case studies as Markdown or a
 * self-contained HTML figure; for the case studies `task`, `item`, `method`, `tag` and `q` narrow the list.
 * `?format=figure-html|figure-svg|figure-print`: Figure 4 of one topic, with the figure page's options (`task`, `item`,
 * `m`, `run`, `turns`, `fields`, `width`); `inline=1` shows it instead of downloading (the page's preview).
 */
export const GET = withRole<{ params: Promise<{ experimentId: string }> }>(["admin", "researcher"], async (req, { params }) => {
  const id = idParam((await params).experimentId, "experiment");
  const sp = new URL(req.url).searchParams;
  const format = sp.get("format") ?? "json";
  if ((FIGURE_FORMATS as readonly string[]).includes(format)) {
    const f = exportFigure(getDb(), id, format as (typeof FIGURE_FORMATS)[number], sp);
    return new Response(f.body, {
      headers: {
        "content-type": f.contentType,
        "content-disposition": `${sp.get("inline") === "1" ? "inline" : "attachment"}; filename="${f.filename}"`,
        // The figure is the project's own markup of stored text; nothing in it may run or load.
        "content-security-policy": "default-src 'none'; style-src 'unsafe-inline'; img-src data:",
      },
    });
  }
  const filter = {
    task: sp.get("task") || undefined,
    itemKey: sp.get("item") || undefined,
    method: sp.get("method") || undefined,
    tag: sp.get("tag") || undefined,
    q: sp.get("q") || undefined,
  };
  const f = exportExperiment(getDb(), id, format, filter);
  return new Response(f.body, {
    headers: { "content-type": f.contentType, "content-disposition": `attachment; filename="${f.filename}"` },
  });
});
