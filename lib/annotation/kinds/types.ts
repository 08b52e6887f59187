import type { CampaignKind } from "@/db/schema";
import type { JudgeName } from "@/lib/judges/registry";

/** One dimension of a campaign (its label spec): a scale and ordered categories in canonical terms. */
export interface DimensionSpec {
  key: string;
  title: string;
  question: string;
  scale: "nominal" | "ordinal";
  categories: Array<{ value: string; label: string }>;
}

/** A key the annotator presses and the value it means in the order shown (first/left side's view). */
export interface KeyChoice {
  key: string;
  shown: string;
  label: string;
  /** The guidelines ask for a comment with this choice (Mem-PAL's "1"): the queue opens the comment box on it. */
  asksComment?: boolean;
}

/** A parsed uploaded line: the shared context, and for pairwise kinds the two systems' outputs. */
export interface ParsedItem {
  externalId: string;
  content: Record<string, unknown>;
  outputs?: { A: { system: string; output: unknown }; B: { system: string; output: unknown } };
}

/** An attention check made from one of the campaign's items: what is shown, and the answer an attentive person gives. */
export interface AttentionCheck {
  check: "identical-pair" | "broken-reply";
  content: Record<string, unknown>;
  /** Pairwise kinds: both sides (the systems of the source item, so the sides look like any item's). */
  outputs?: ParsedItem["outputs"];
  /** Expected canonical value per dimension (for pairwise kinds, for side A). */
  gold: Record<string, string>;
}

export interface CampaignKindDef {
  kind: CampaignKind;
  label: string;
  /** The neutral title annotators see when the campaign gives none (it names no system: lib/annotation/blinding.ts). */
  annotatorTitle: string;
  description: string;
  /** Two outputs compared side by side; labels are Win/Tie/Lose for canonical slot A. */
  pairwise: boolean;
  dimensions: DimensionSpec[];
  keys: KeyChoice[];
  /** The LLM judge of lib/judges/registry.ts that judges this kind's items (lib/annotation/llm-judge/adapters.ts). */
  llmJudge?: JudgeName;
  /** The item sources this kind accepts. */
  sources: Array<"palset-session" | "upload" | "experiment">;
  /** Validates one uploaded JSONL record; throws InvalidInputError naming `where` and the field. */
  parseUpload?: (obj: Record<string, unknown>, where: string) => ParsedItem;
  uploadExample?: string;
  defaultGuidelines: string;
  /** How split human votes are resolved unless the campaign says otherwise ("tie" needs a Tie category). */
  defaultTieRule: "tie" | "first" | "adjudicate" | "none";
  /**
   * Automatic attention checks (issue 43.3): the `n`-th check made from `item` (variants alternate with n),
   * or null when this item cannot carry one. Absent: the kind has no automatic checks (the campaign form
   * and CLI then refuse an attention rate).
   */
  attentionCheck?: (item: ParsedItem, n: number, rng: () => number) => AttentionCheck | null;
  /** Names of the two sides in reports (canonical A, B). */
  sideNames?: { A: string; B: string };
}
