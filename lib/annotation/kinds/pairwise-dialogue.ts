import type { CampaignKindDef } from "./types";
import { info, side, str } from "./fields";
import { InvalidInputError } from "@/lib/errors";
import { pairwiseAttention } from "./attention";

export const WTL = [
  { value: "Win", label: "Win" },
  { value: "Tie", label: "Tie" },
  { value: "Lose", label: "Lose" },
];

/** Mem-PAL's multi-turn dialogue comparison: Win/Tie/Lose for the dialogue shown first, on two dimensions. */
export const pairwiseDialogue: CampaignKindDef = {
  kind: "pairwise-dialogue",
  label: "Pairwise dialogue judging",
  annotatorTitle: "Compare two dialogues",
  description: "Two dialogues on the same topic, judged Win/Tie/Lose for the first on requirement and preference understanding. Blinded.",
  pairwise: true,
  llmJudge: "dialogue-pair",
  sources: ["upload", "experiment"],
  dimensions: [
    {
      key: "requirement",
      title: "Requirement understanding",
      question: "Which assistant better clarifies what the user actually needs?",
      scale: "nominal",
      categories: WTL,
    },
    {
      key: "preference",
      title: "Preference understanding",
      question: "Whose proposed solutions better fit the user's preferences?",
      scale: "nominal",
      categories: WTL,
    },
  ],
  keys: [
    // Named by number, never by side: on a phone the dialogues are stacked, on a desktop side by side (issue 44.2).
    { key: "w", shown: "Win", label: "Dialogue 1 is better" },
    { key: "t", shown: "Tie", label: "tie" },
    { key: "l", shown: "Lose", label: "Dialogue 2 is better" },
  ],
  sideNames: { A: "A", B: "B" },
  uploadExample:
    '{"id": "0003/topic-2", "topic": "Plan a weekend trip", "user_info": {"profile": "...", "requirement": "...", "preferences": ["..."]}, ' +
    '"a": {"system": "h2memory", "output": [{"role": "user", "content": "..."}, {"role": "assistant", "content": "..."}]}, ' +
    '"b": {"system": "vanilla-log", "output": [...]}}',
  parseUpload(obj, where) {
    const a = side(obj, "a", where);
    const b = side(obj, "b", where);
    if (a.system === b.system) throw new InvalidInputError(`${where}: "a.system" and "b.system" must differ`);
    const topic = str(obj, "topic", where, { optional: true });
    return {
      externalId: str(obj, "id", where)!,
      content: { ...(topic ? { topic } : {}), userInfo: info(obj, "user_info", where) },
      outputs: { A: a, B: b },
    };
  },
  // An identical pair (Tie) or one dialogue's assistant turns broken (the other wins), on both dimensions.
  attentionCheck: pairwiseAttention(["requirement", "preference"]),
  defaultTieRule: "tie",
  defaultGuidelines: [
    "## What you judge",
    "",
    "You see the user's information and two dialogues between that user and two assistants on the same topic.",
    "For each dimension, choose **Dialogue 1 is better** (W), **Dialogue 2 is better** (L) or **tie** (T).",
    "",
    "- **Requirement understanding**: does the assistant find out what the user actually needs?",
    "- **Preference understanding**: do its proposals fit the user's stated preferences?",
  ].join("\n"),
};
