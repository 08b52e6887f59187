/** The campaign kinds: a new kind is one module plus one line here. */
import type { CampaignKind } from "@/db/schema";
import { InvalidInputError } from "@/lib/errors";
import type { CampaignKindDef } from "./types";
import { sessionQuality } from "./session-quality";
import { pairwiseDialogue } from "./pairwise-dialogue";
import { hicupidAb } from "./hicupid-ab";
import { outputRating } from "./output-rating";
import { answerCorrectness } from "./answer-correctness";

export type { AttentionCheck, CampaignKindDef, DimensionSpec, KeyChoice, ParsedItem } from "./types";

export const CAMPAIGN_KIND_DEFS: readonly CampaignKindDef[] = [
  sessionQuality,
  pairwiseDialogue,
  hicupidAb,
  outputRating,
  answerCorrectness,
];

export function kindDef(kind: string): CampaignKindDef {
  const d = CAMPAIGN_KIND_DEFS.find((k) => k.kind === kind);
  if (!d) throw new InvalidInputError(`kind: expected one of ${CAMPAIGN_KIND_DEFS.map((k) => k.kind).join(", ")}, got "${kind}"`);
  return d;
}

export function isCampaignKind(k: string): k is CampaignKind {
  return CAMPAIGN_KIND_DEFS.some((d) => d.kind === k);
}

/** Canonical value of a pairwise label given what was pressed in the order shown. */
export function canonicalValue(def: CampaignKindDef, shown: string, swapped: boolean): string {
  if (!def.pairwise || !swapped) return shown;
  return shown === "Win" ? "Lose" : shown === "Lose" ? "Win" : shown;
}
