/** The LLM judges a campaign can run: a new one is one module plus one line here. */
import { InvalidInputError } from "@/lib/errors";
import type { CampaignJudgeDef } from "./types";
import { pairwiseDialogueJudge } from "./pairwise-dialogue";
import { hicupidAbJudge } from "./hicupid-ab";
import { ratingJudge } from "./rating";

export const CAMPAIGN_JUDGES: readonly CampaignJudgeDef[] = [pairwiseDialogueJudge, hicupidAbJudge, ratingJudge];

/** The judge for a campaign kind (each kind has exactly one). */
export function judgeForKind(kind: string): CampaignJudgeDef {
  const j = CAMPAIGN_JUDGES.find((x) => x.kinds.includes(kind as never));
  if (!j) throw new InvalidInputError(`no LLM judge applies to ${kind} campaigns`);
  return j;
}
