import { getDb } from "@/db/client";
import { withRole } from "@/lib/auth/session";
import { acrossTableFile, parseExperimentIds } from "@/lib/experiments/paper-table/across";

/**
 * `?ids=3,5,7&format=latex|markdown|csv`: one paper table across 2 to 8 experiments (what
 * `pal table --experiments` prints) as a download; `table` picks one, `rows=run` leaves out the published rows.
 */
export const GET = withRole(["admin", "researcher"], async (req) => {
  const sp = new URL(req.url).searchParams;
  const f = acrossTableFile(getDb(), parseExperimentIds(sp.getAll("ids").join(",")), sp.get("format") ?? "latex", {
    table: sp.get("table"),
    runOnly: sp.get("rows") === "run",
  });
  return new Response(f.body, {
    headers: { "content-type": f.contentType, "content-disposition": `attachment; filename="${f.filename}"` },
  });
});
