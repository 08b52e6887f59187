/**
 * The campaign pages' server-action forms, validated at the boundary (lib/http/form.ts): the actions in
 * app/(app)/campaigns/actions.ts are these plus the session check and a revalidation.
 */
import { z } from "zod";
import type { Db } from "@/db/client";
import { formBool, formId, formText, parseForm } from "@/lib/http/form";
import { setCampaignStatus } from "./campaigns";
import { adjudicate } from "./item-view";
import { checkReason, REASON_KEYS } from "./adjudication-reasons";
import { editGuidelines, MAX_GUIDELINES_CHARS } from "./guideline-versions";
import { applyPairwiseTieMargin } from "./calibration";
import { setParticipantExcluded } from "./participants/quality";

const statusForm = z.object({
  campaignId: formId("campaign"),
  status: z.enum(["open", "closed"], { error: "expected open or closed" }),
});

/** Close or reopen: `status=bogus` is a 400, an unknown campaign a 404. */
export function setCampaignStatusForm(db: Db, form: FormData): { campaignId: number; ok: string } {
  const { campaignId, status } = parseForm(statusForm, form);
  setCampaignStatus(db, campaignId, status);
  return { campaignId, ok: status === "open" ? "Campaign reopened." : "Campaign closed." };
}

const adjudicateFields = z.object({
  campaignId: formId("campaign"),
  itemId: formId("item"),
  dimension: z.string({ error: "expected a dimension" }).min(1, "expected a dimension").max(200),
  value: z.string({ error: "expected a value" }).min(1, "expected a value").max(200),
  reason: z.enum(REASON_KEYS, { error: `expected one of ${REASON_KEYS.join(", ")}` }),
  note: formText(2000),
});

/** A decision needs a reason; "other" needs the note to give it (./adjudication.ts). */
export function adjudicateForm(db: Db, form: FormData, userId: number): { campaignId: number; itemId: number; ok: string } {
  const f = parseForm(adjudicateFields, form);
  const note = checkReason(f.reason, f.note);
  adjudicate(db, f.campaignId, f.itemId, f.dimension, f.value, note, userId, f.reason);
  return { campaignId: f.campaignId, itemId: f.itemId, ok: "Adjudication recorded." };
}

/** Where a margin came from, shown beside the experiment's W/T/L: a short label, not a document. */
export const TIE_MARGIN_SOURCE_MAX = 300;

const tieMarginFields = z.object({
  campaignId: formId("campaign"),
  experimentId: formId("experiment"),
  margin: z
    .string()
    .max(20, "expected a number from 0 to 10, or empty to reset")
    .regex(/^(\d{1,2}(\.\d{1,6})?)?$/, "expected a number from 0 to 10, or empty to reset")
    .default(""),
  source: formText(TIE_MARGIN_SOURCE_MAX),
});

/**
 * Apply (or reset, with an empty margin) a calibrated tie margin to an experiment's pairwise results:
 * `margin=abc` or an over-long `source` is a 400, an unknown experiment a 404, one without pairwise
 * dialogue results a 400 (lib's rules in applyPairwiseTieMargin).
 */
export function applyTieMarginForm(db: Db, form: FormData): { campaignId: number; experimentId: number; ok: string } {
  const f = parseForm(tieMarginFields, form);
  const margin = f.margin === "" ? null : Number(f.margin);
  applyPairwiseTieMargin(db, f.experimentId, margin, margin === null ? null : f.source || `campaign ${f.campaignId}`);
  return {
    campaignId: f.campaignId,
    experimentId: f.experimentId,
    ok: margin === null ? `Margin reset on experiment #${f.experimentId}.` : `Margin ${margin} applied to experiment #${f.experimentId}.`,
  };
}

const excludeFields = z.object({
  campaignId: formId("campaign"),
  participantId: formId("participant"),
  excluded: z.enum(["true", "false"], { error: "expected true or false" }),
  reason: formText(500),
});

/** Exclude a participant (their labels kept, marked, out of agreement) or take them back. */
export function excludeParticipantForm(db: Db, form: FormData): { campaignId: number; ok: string } {
  const f = parseForm(excludeFields, form);
  setParticipantExcluded(db, f.campaignId, f.participantId, f.excluded === "true", f.reason);
  return { campaignId: f.campaignId, ok: f.excluded === "true" ? "Participant excluded." : "Participant included again." };
}

const guidelinesFields = z.object({
  campaignId: formId("campaign"),
  guidelines: formText(MAX_GUIDELINES_CHARS),
  showSystemNames: formBool.optional(),
});

/** Saves edited guidelines as a new version (./guideline-versions.ts): naming a compared system is a 400 unless overridden. */
export function editGuidelinesForm(db: Db, form: FormData, userId: number): { campaignId: number; version: number; ok: string } {
  const f = parseForm(guidelinesFields, form);
  const { version } = editGuidelines(db, f.campaignId, f.guidelines, userId, { showSystemNames: f.showSystemNames === true });
  return { campaignId: f.campaignId, version, ok: `Saved as version ${version}; annotators see it from their next page.` };
}
