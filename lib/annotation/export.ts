/** Campaign export: every label (CSV or JSON) and, in JSON, the agreement report the dashboard shows. */
import { asc, eq, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { adjudications, assignments, campaignItems, judgeFailures, judgeLabels, labels, participants, users } from "@/db/schema";
import { crowdSettingsOf } from "./participants/settings";
import { goldResult } from "./participants/quality";
import { itemOutcomes } from "./item-outcomes";
import { campaignAgreement, type CampaignAgreement } from "./agreement";
import { publishedTable11For } from "./published-table11";
import { campaignDimensionsOf, campaignSystemsOf, getCampaign } from "./campaigns";
import { judgeRunsOf } from "./human-labels";
import { annotatorTitleOf } from "./blinding";
import { kindDef } from "./kinds";
import { toCsv } from "@/lib/csv";
import { guidelineVersionsOf } from "./guideline-versions";

/** A campaign's decisions, item by item. */
export function adjudicationRows(db: Db, campaignId: number) {
  return db
    .select({
      item: campaignItems.externalId,
      dimension: adjudications.dimension,
      value: adjudications.value,
      reason: adjudications.reason,
      note: adjudications.note,
      adjudicator: users.email,
      at: adjudications.createdAt,
    })
    .from(adjudications)
    .innerJoin(campaignItems, eq(campaignItems.id, adjudications.itemId))
    .innerJoin(users, eq(users.id, adjudications.adjudicatorId))
    .where(eq(campaignItems.campaignId, campaignId))
    .orderBy(asc(campaignItems.position), asc(adjudications.dimension))
    .all()
    .map((a) => ({ ...a, at: new Date(a.at).toISOString() }));
}

/** Every judge run of a campaign (imported or LLM) with its verdicts and, for LLM runs, the items it could not judge. */
export function judgeRunsExport(db: Db, campaignId: number) {
  return judgeRunsOf(db, campaignId).map((r) => ({
    id: r.id,
    name: r.name,
    origin: r.origin,
    model: r.model,
    config: r.config,
    labels: db
      .select({
        item: campaignItems.externalId,
        dimension: judgeLabels.dimension,
        value: judgeLabels.value,
        analysis: judgeLabels.analysis,
        judgments: judgeLabels.judgments,
      })
      .from(judgeLabels)
      .innerJoin(campaignItems, eq(campaignItems.id, judgeLabels.itemId))
      .where(eq(judgeLabels.runId, r.id))
      .orderBy(asc(campaignItems.position), asc(judgeLabels.dimension))
      .all(),
    failures: db
      .select({ item: campaignItems.externalId, dimension: judgeFailures.dimension, error: judgeFailures.error })
      .from(judgeFailures)
      .innerJoin(campaignItems, eq(campaignItems.id, judgeFailures.itemId))
      .where(eq(judgeFailures.runId, r.id))
      .orderBy(asc(campaignItems.position), asc(judgeFailures.dimension))
      .all(),
  }));
}

/**
 * Every label with its item, annotator (a participant's pseudonymous code, never their Prolific id),
 * seconds on task (measured by the page), gold result (null: not a gold item), the attention check it
 * answered (null: none; such labels are marked, never real labels), whether the answer was
 * faster than the campaign's minimum, and whether its participant is excluded (kept, marked).
 */
export function labelRows(db: Db, campaignId: number) {
  const minMs = crowdSettingsOf(getCampaign(db, campaignId).crowd).minSeconds * 1000;
  return labelRowsRaw(db, campaignId).map(({ gold, excluded, participant, ...r }) => ({
    ...r,
    seconds: r.msSpent / 1000,
    gold: goldResult(gold, r.dimension, r.value),
    ...(participant ? { tooFast: r.msSpent < minMs, excluded: Boolean(excluded) } : { tooFast: null, excluded: false }),
  }));
}

function labelRowsRaw(db: Db, campaignId: number) {
  return db
    .select({
      item: campaignItems.externalId,
      itemId: campaignItems.id,
      annotator: sql<string>`coalesce(${participants.code}, ${users.email})`,
      participant: participants.id,
      gold: campaignItems.gold,
      // An attention check generated at creation (its name), never a real label: kept, marked.
      attention: campaignItems.attention,
      excluded: participants.excluded,
      excludedReason: participants.excludedReason,
      dimension: labels.dimension,
      value: labels.value,
      shownValue: labels.shownValue,
      swapped: labels.swapped,
      comment: labels.comment,
      // The guidelines' version the annotator's page showed (./guideline-versions.ts).
      version: labels.guidelineVersion,
      msSpent: assignments.msSpent,
      submittedAt: assignments.submittedAt,
    })
    .from(labels)
    .innerJoin(assignments, eq(assignments.id, labels.assignmentId))
    .innerJoin(campaignItems, eq(campaignItems.id, assignments.itemId))
    .innerJoin(users, eq(users.id, assignments.annotatorId))
    .leftJoin(participants, eq(participants.userId, assignments.annotatorId))
    .where(eq(assignments.campaignId, campaignId))
    .orderBy(asc(campaignItems.position), asc(users.email), asc(labels.dimension))
    .all();
}

/**
 * A report the export takes as it is: the server passes its cached one (lib/annotation/agreement-cache.ts),
 * with its time and whether newer labels have come since; without one (the CLI) it is computed here.
 */
export interface ServedAgreement {
  report: CampaignAgreement;
  computedAt: number;
  current: boolean;
}

function served(db: Db, campaignId: number, given?: ServedAgreement): ServedAgreement {
  return given ?? { report: campaignAgreement(db, campaignId), computedAt: Date.now(), current: true };
}

/** The agreement report as CSV rows: one per dimension and statistic (Cohen: one per annotator pair and weighting). */
export function agreementCsv(db: Db, campaignId: number, given?: ServedAgreement): string {
  const a = served(db, campaignId, given).report;
  const rows: Array<Record<string, unknown>> = [];
  for (const d of a.dimensions) {
    const r = d.report;
    const ci = r.bootstrap?.ci ?? {};
    for (const key of ["percentAgreement", "fleissKappa", "krippendorffAlpha"] as const) {
      rows.push({
        dimension: d.dimension.key,
        statistic: key,
        raters: "",
        n: d.labelledItems,
        value: r[key],
        ciLow: ci[key]?.[0],
        ciHigh: ci[key]?.[1],
        reading: key === "percentAgreement" ? "" : (r.interpretation as Record<string, string | null>)[key],
        note: r.reasons[key],
      });
    }
    r.cohen.forEach((p, i) => {
      for (const key of ["kappa", "linearWeightedKappa", "quadraticWeightedKappa"] as const) {
        if (key !== "kappa" && d.dimension.scale !== "ordinal") continue;
        const reading = d.cohenInterpretation[i][key === "kappa" ? "kappa" : key === "linearWeightedKappa" ? "linear" : "quadratic"];
        rows.push({
          dimension: d.dimension.key,
          statistic: `cohen.${key}`,
          raters: p.raters.join(" x "),
          n: p.n,
          value: p[key],
          ciLow: p.ci?.[key]?.[0],
          ciHigh: p.ci?.[key]?.[1],
          reading,
          note: p.reasons?.[key],
        });
      }
    });
    if (d.mean !== null) rows.push({ dimension: d.dimension.key, statistic: "meanRating", raters: "", n: d.labelledItems, value: d.mean });
  }
  return toCsv(rows, ["dimension", "statistic", "raters", "n", "value", "ciLow", "ciHigh", "reading", "note"]);
}

export function exportCampaign(
  db: Db,
  campaignId: number,
  format: "csv" | "json",
  what: "labels" | "agreement" = "labels",
  given?: ServedAgreement,
): string {
  const c = getCampaign(db, campaignId);
  if (format === "csv" && what === "agreement") return agreementCsv(db, campaignId, given);
  const rows = labelRows(db, campaignId);
  const systems = campaignSystemsOf(db, campaignId);
  const published = publishedTable11For(c.kind, systems);
  if (format === "csv") {
    // Times in ISO 8601 (UTC), not epoch milliseconds: a spreadsheet reads them as dates (issue 44.8).
    const iso = rows.map((r) => ({ ...r, submittedAt: r.submittedAt === null ? null : new Date(r.submittedAt).toISOString() }));
    return toCsv(iso, [
      "item",
      "itemId",
      "annotator",
      "dimension",
      "value",
      "shownValue",
      "swapped",
      "comment",
      "msSpent",
      "submittedAt",
      "seconds",
      "gold",
      "attention",
      "tooFast",
      "excluded",
      "excludedReason",
      // The guidelines' version the label was given under; last, so earlier columns keep their places.
      "version",
    ]);
  }
  return (
    JSON.stringify(
      {
        campaign: {
          id: c.id,
          name: c.name,
          kind: c.kind,
          perItem: c.perItem,
          tieRule: c.tieRule,
          status: c.status,
          // What annotators saw as the title, and whether they were shown system names by an override (issue 40.15).
          annotatorTitle: annotatorTitleOf(c, kindDef(c.kind).annotatorTitle),
          blindingOverride: c.blindingOverride ?? null,
          assignment: c.assignment,
        },
        systems,
        dimensions: campaignDimensionsOf(db, campaignId),
        labels: rows,
        // Per item and dimension: unanimous / majority / adjudicated / unresolved / unlabelled.
        itemOutcomes: itemOutcomes(
          db,
          campaignId,
          campaignDimensionsOf(db, campaignId).map((d) => d.key),
        ),
        // Each researcher's decision: the item's final label, with why it was needed (./adjudication.ts).
        adjudications: adjudicationRows(db, campaignId),
        // Every version of the guidelines; each label's `version` names the one its page showed.
        guidelineVersions: guidelineVersionsOf(db, campaignId),
        agreement: (() => {
          const a = served(db, campaignId, given);
          // When it was computed, and false when labels have come in since (the server's cached report).
          return { ...a.report, computedAt: new Date(a.computedAt).toISOString(), current: a.current };
        })(),
        judges: judgeRunsExport(db, campaignId),
        // Pairwise dialogues: Mem-PAL's own Table 11, to set beside agreement.judgeViews.table11.
        ...(published ? { publishedTable11: published } : {}),
      },
      null,
      2,
    ) + "\n"
  );
}
