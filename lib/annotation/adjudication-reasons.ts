/** The reasons a researcher's decision on an item may give (issue 43.4). Pure: the decision form imports it too. */
import { InvalidInputError } from "@/lib/errors";

/** Why an item needed a researcher's decision; "other" asks for the reason in the note. */
export const ADJUDICATION_REASONS = [
  { key: "ambiguous-item", label: "ambiguous item" },
  { key: "guideline-gap", label: "guideline gap" },
  { key: "annotator-error", label: "annotator error" },
  { key: "other", label: "other" },
] as const;
export type AdjudicationReason = (typeof ADJUDICATION_REASONS)[number]["key"];
export const REASON_KEYS = ADJUDICATION_REASONS.map((r) => r.key) as [AdjudicationReason, ...AdjudicationReason[]];

export const reasonLabel = (key: string | null): string | null => ADJUDICATION_REASONS.find((r) => r.key === key)?.label ?? key;

/** A reason is required; "other" needs the note to say what it was. Returns the note to store. */
export function checkReason(reason: AdjudicationReason, note: string | null): string | null {
  const n = note?.trim() || null;
  if (reason === "other" && !n) throw new InvalidInputError('note: say why when the reason is "other"');
  return n;
}
