import { getDb } from "@/db/client";
import { withRole } from "@/lib/auth/session";
import { exportCampaign, getCampaign } from "@/lib/annotation";

export const dynamic = "force-dynamic";

/** GET ?format=csv|json[&what=agreement] → every label (CSV), the agreement report (CSV), or both (JSON), as a download. */
export const GET = withRole<{ params: Promise<{ campaignId: string }> }>(["admin", "researcher"], async (req, { params }) => {
  const id = Number((await params).campaignId);
  const db = getDb();
  const c = getCampaign(db, id);
  const q = new URL(req.url).searchParams;
  const format = q.get("format") === "csv" ? "csv" : "json";
  const what = q.get("what") === "agreement" ? "agreement" : "labels";
  return new Response(exportCampaign(db, c.id, format, what), {
    headers: {
      "Content-Type": format === "csv" ? "text/csv; charset=utf-8" : "application/json; charset=utf-8",
      "Content-Disposition": `attachment; filename="campaign-${c.id}-${what}.${format}"`,
      "Cache-Control": "no-store",
    },
  });
});
