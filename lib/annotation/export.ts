/** Campaign export: every label (CSV or JSON) and, in JSON, the agreement report the dashboard shows. */
import { asc, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { assignments, campaignItems, labels, users } from "@/db/schema";
import { campaignAgreement } from "./agreement";
import { campaignDimensionsOf, campaignSystemsOf, getCampaign } from "./campaigns";

export function labelRows(db: Db, campaignId: number) {
  return db
    .select({
      item: campaignItems.externalId,
      itemId: campaignItems.id,
      annotator: users.email,
      dimension: labels.dimension,
      value: labels.value,
      shownValue: labels.shownValue,
      swapped: labels.swapped,
      comment: labels.comment,
      msSpent: assignments.msSpent,
      submittedAt: assignments.submittedAt,
    })
    .from(labels)
    .innerJoin(assignments, eq(assignments.id, labels.assignmentId))
    .innerJoin(campaignItems, eq(campaignItems.id, assignments.itemId))
    .innerJoin(users, eq(users.id, assignments.annotatorId))
    .where(eq(assignments.campaignId, campaignId))
    .orderBy(asc(campaignItems.position), asc(users.email), asc(labels.dimension))
    .all();
}

const csvCell = (v: unknown) => {
  const s = v === null || v === undefined ? "" : String(v);
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
};

export function toCsv(rows: Array<Record<string, unknown>>, columns: string[]): string {
  return [columns.join(","), ...rows.map((r) => columns.map((c) => csvCell(r[c])).join(","))].join("\n") + "\n";
}

export function exportCampaign(db: Db, campaignId: number, format: "csv" | "json"): string {
  const c = getCampaign(db, campaignId);
  const rows = labelRows(db, campaignId);
  if (format === "csv") {
    return toCsv(rows, ["item", "itemId", "annotator", "dimension", "value", "shownValue", "swapped", "comment", "msSpent", "submittedAt"]);
  }
  return (
    JSON.stringify(
      {
        campaign: { id: c.id, name: c.name, kind: c.kind, perItem: c.perItem, tieRule: c.tieRule, status: c.status },
        systems: campaignSystemsOf(db, campaignId),
        dimensions: campaignDimensionsOf(db, campaignId),
        labels: rows,
        agreement: campaignAgreement(db, campaignId),
      },
      null,
      2,
    ) + "\n"
  );
}
