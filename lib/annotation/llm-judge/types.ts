/** Campaign judging's vocabulary: items as a judge reads them, a run's settings, verdicts per dimension. */
import type { JudgeModel } from "@/lib/judges/judge";
import type { DimensionSpec } from "../kinds";

/** An item as a judge may read it: the shared content, and for pairwise kinds the outputs by canonical slot. */
export interface JudgeItem {
  id: number;
  externalId: string;
  content: Record<string, unknown>;
  outputs?: { A: unknown; B: unknown };
}

export interface JudgeSettings {
  /** The model configuration (a judge role name: "judge" or "judge:<name>"). */
  modelConfig: string;
  /** Sampling temperature sent with every call. */
  temperature: number;
  /** FairEval tie margin on the average scores (pairwise dialogue judge). */
  tieMargin: number;
  /** Seed of the answer slots (HiCUPID judge; lib/judges/hicupid/ab.ts, balancedSlots). */
  seed: number;
}

export interface JudgeContext {
  model: JudgeModel;
  settings: JudgeSettings;
  guidelines: string;
  dimensions: DimensionSpec[];
  /** All the campaign's items (the answer slots are balanced over all of them, judged or not). */
  items: readonly JudgeItem[];
}

/** A verdict in canonical terms (Win/Tie/Lose for slot A, or a rating), with the calls behind it. */
export type DimensionVerdict = { value: string; judgments: unknown[]; analysis: string | null };
/** Per dimension asked: a verdict, or why there is none (recorded, never invented). */
export type DimensionOutcome = DimensionVerdict | { error: string; rawReply: string | null };

/** A judge of lib/judges/registry.ts with its campaign adapter (./adapters.ts). */
export interface CampaignJudgeDef {
  name: string;
  label: string;
  /** Model calls to judge the given dimensions of one item (for the dry-run estimate). */
  calls(dimensions: string[]): number;
  judge(ctx: JudgeContext, item: JudgeItem, dimensions: string[]): Promise<Record<string, DimensionOutcome>>;
}
