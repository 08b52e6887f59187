import { getDb } from "@/db/client";
import { withRole } from "@/lib/auth/session";
import { exportCampaign, getCampaign } from "@/lib/annotation";

export const dynamic = "force-dynamic";

/** GET ?format=csv|json → every label (CSV) or labels with the agreement report (JSON), as a download. */
export const GET = withRole<{ params: Promise<{ campaignId: string }> }>(["admin", "researcher"], async (req, { params }) => {
  const id = Number((await params).campaignId);
  const db = getDb();
  const c = getCampaign(db, id);
  const format = new URL(req.url).searchParams.get("format") === "csv" ? "csv" : "json";
  return new Response(exportCampaign(db, c.id, format), {
    headers: {
      "Content-Type": format === "csv" ? "text/csv; charset=utf-8" : "application/json; charset=utf-8",
      "Content-Disposition": `attachment; filename="campaign-${c.id}-labels.${format}"`,
      "Cache-Control": "no-store",
    },
  });
});
