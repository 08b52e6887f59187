import type { CampaignKindDef } from "./types";
import { info, output, str } from "./fields";
import { RATING, RATING_KEYS } from "./session-quality";
import { InvalidInputError } from "@/lib/errors";
import { brokenOutput } from "./attention";

/** Single outputs produced anywhere, each rated 1–3 (the same scale as the session check). */
export const outputRating: CampaignKindDef = {
  kind: "output-rating",
  label: "Output rating (uploaded)",
  annotatorTitle: "Rate answers",
  description: "Single outputs from a file, each rated 1–3 for how well it fits the user.",
  pairwise: false,
  llmJudge: "rating",
  sources: ["upload"],
  dimensions: [
    {
      key: "quality",
      title: "Fit to the user",
      question: "Does the output match the user's profile, requirements and preferences?",
      scale: "ordinal",
      categories: RATING,
    },
  ],
  keys: RATING_KEYS,
  uploadExample: '{"id": "item-1", "context": {"profile": "...", "question": "..."}, "output": "..."}',
  parseUpload(obj, where) {
    // A system name would be shown to annotators with the content: refuse it rather than leak it.
    if (obj.system !== undefined)
      throw new InvalidInputError(`${where}: field "system" is not accepted for ratings (it would reach annotators)`);
    return {
      externalId: str(obj, "id", where)!,
      content: { context: info(obj, "context", where, { optional: true }) ?? null, output: output(obj.output, "output", where) },
    };
  },
  // A rating has no pair to make identical: the check is the output broken into word salad, rated 1.
  attentionCheck: (item, _n, rng) => ({
    check: "broken-reply",
    content: { ...item.content, output: brokenOutput(item.content.output, rng) },
    gold: { quality: "1" },
  }),
  defaultTieRule: "adjudicate",
  defaultGuidelines:
    "Rate each output **1 to 3**: 1 = does not match the user, 2 = basically matches, 3 = completely matches. Add a comment when you give a 1.",
};
