import { getDb } from "@/db/client";
import { withRole } from "@/lib/auth/session";
import { exportCampaign, getCampaign } from "@/lib/annotation";
import { agreementSnapshot } from "@/lib/annotation/agreement-cache";

export const dynamic = "force-dynamic";

/**
 * GET ?format=csv|json[&what=agreement] → every label (CSV), the agreement report (CSV), or both (JSON), as a
 * download. The report is the cached one with its time (503 with Retry-After while a campaign's first is computed).
 */
export const GET = withRole<{ params: Promise<{ campaignId: string }> }>(["admin", "researcher"], async (req, { params }) => {
  const id = Number((await params).campaignId);
  const db = getDb();
  const c = getCampaign(db, id);
  const q = new URL(req.url).searchParams;
  const format = q.get("format") === "csv" ? "csv" : "json";
  const what = q.get("what") === "agreement" ? "agreement" : "labels";
  // The agreement report comes from the background cache: a download never waits for a bootstrap.
  const needsAgreement = format === "json" || what === "agreement";
  const snap = needsAgreement ? agreementSnapshot(db, c.id) : null;
  if (snap && !snap.report) {
    return Response.json(
      { error: "the agreement report is being computed: try again in a few seconds", code: "agreement_computing" },
      { status: 503, headers: { "Retry-After": "5", "Cache-Control": "no-store" } },
    );
  }
  const given = snap?.report ? { report: snap.report, computedAt: snap.computedAt!, current: snap.current } : undefined;
  return new Response(exportCampaign(db, c.id, format, what, given), {
    headers: {
      "Content-Type": format === "csv" ? "text/csv; charset=utf-8" : "application/json; charset=utf-8",
      "Content-Disposition": `attachment; filename="campaign-${c.id}-${what}.${format}"`,
      "Cache-Control": "no-store",
    },
  });
});
