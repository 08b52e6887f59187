import { getDb } from "@/db/client";
import { withRole } from "@/lib/auth/session";
import { paperTableFile } from "@/lib/experiments/paper-table";
import { idParam } from "@/lib/http/request";

/**
 * `?format=latex|markdown|csv`: the experiment's paper tables (what `pal table` prints) as a download;
 * `rows=run`: this run's rows only (no published rows, no differences); `table` picks one (mem-pal-table2, mem-pal-table3, mem-pal-table10, hicupid-table3, hicupid-table-a2), `paperModel` the HiCUPID model compared with.
 */
export const GET = withRole<{ params: Promise<{ experimentId: string }> }>(["admin", "researcher"], async (req, { params }) => {
  const id = idParam((await params).experimentId, "experiment");
  const sp = new URL(req.url).searchParams;
  const f = paperTableFile(getDb(), id, sp.get("format") ?? "latex", {
    table: sp.get("table"),
    paperModel: sp.get("paperModel"),
    runOnly: sp.get("rows") === "run",
  });
  return new Response(f.body, {
    headers: { "content-type": f.contentType, "content-disposition": `attachment; filename="${f.filename}"` },
  });
});
