import { getDb } from "@/db/client";
import { withRole } from "@/lib/auth/session";
import { exportExperiment } from "@/lib/experiments/export";
import { exportFigure, FIGURE_FORMATS } from "@/lib/experiments/figure4";
import { idParam } from "@/lib/http/request";
import { readyBundle } from "@/lib/bundles/web";
import { runCardOfExperiment } from "@/lib/bundles/run-card";

/**
 * `?format=csv|json|md|html`: the results table, the full results, or the case studies as Markdown or a
 * self-contained HTML figure; for the case studies `task`, `item`, `method`, `tag` and `q` narrow the list.
 * `?format=figure-html|figure-svg|figure-print`: Figure 4 of one topic, with the figure page's options (`task`, `item`,
 * `m`, `run`, `turns`, `fields`, `width`); `inline=1` shows it instead of downloading (the page's preview).
 * `?format=bundle` (`&data=1`: with the data set's rows): the run's bundle as built in the background (POST ../bundle;
 * 404 when none is ready); `?format=card-md|card-html`: its run card.
 */
export const GET = withRole<{ params: Promise<{ experimentId: string }> }>(["admin", "researcher"], async (req, { params }) => {
  const id = idParam((await params).experimentId, "experiment");
  const sp = new URL(req.url).searchParams;
  const format = sp.get("format") ?? "json";
  if (format === "bundle") {
    const b = readyBundle(id, sp.get("data") === "1");
    return new Response(b.body, {
      headers: {
        "content-type": "application/vnd.sqlite3",
        "content-length": String(b.bytes),
        "content-disposition": `attachment; filename="${b.filename}"`,
      },
    });
  }
  if (format === "card-md" || format === "card-html") {
    const html = format === "card-html";
    return new Response(runCardOfExperiment(getDb(), id, html ? "html" : "md"), {
      headers: {
        "content-type": html ? "text/html; charset=utf-8" : "text/markdown; charset=utf-8",
        "content-disposition": `${sp.get("inline") === "1" ? "inline" : "attachment"}; filename="experiment-${id}-run-card.${html ? "html" : "md"}"`,
        "content-security-policy": "default-src 'none'; style-src 'unsafe-inline'",
      },
    });
  }
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
