import type { CampaignKindDef } from "./types";
import { info, str } from "./fields";
import { pairwiseAttention } from "./attention";

/** Win/Tie/Lose for canonical slot A (the model's answer) against B (the reference), on either dimension. */
const MODEL_VS_REFERENCE = [
  { value: "Win", label: "Model wins" },
  { value: "Tie", label: "Tie" },
  { value: "Lose", label: "Reference wins" },
];

/** HiCUPID's human A/B/Tie evaluation: a model's answer against the personalized reference, slots randomised. */
export const hicupidAb: CampaignKindDef = {
  kind: "hicupid-ab",
  label: "HiCUPID A/B/Tie",
  annotatorTitle: "Compare two answers",
  description: "A question, the user's metadata and two answers (a model's and the personalized reference, slot randomised).",
  pairwise: true,
  llmJudge: "hicupid-ab",
  sources: ["upload", "experiment"],
  dimensions: [
    {
      key: "personalization",
      title: "Personalization",
      question: "Which answer takes the user's characteristics into account better?",
      scale: "nominal",
      categories: MODEL_VS_REFERENCE,
    },
    {
      key: "logical-validity",
      title: "Logical validity",
      question: "Which answer is the logically sounder response to the question?",
      scale: "nominal",
      categories: MODEL_VS_REFERENCE,
    },
  ],
  keys: [
    { key: "a", shown: "Win", label: "answer A is better" },
    { key: "t", shown: "Tie", label: "tie" },
    { key: "b", shown: "Lose", label: "answer B is better" },
  ],
  sideNames: { A: "model", B: "reference" },
  uploadExample: '{"id": "qa-17", "question": "...", "metadata": "...", "model": "llama-3.1-8b", "answer": "...", "reference": "..."}',
  parseUpload(obj, where) {
    return {
      externalId: str(obj, "id", where)!,
      content: { question: str(obj, "question", where), metadata: info(obj, "metadata", where) },
      outputs: {
        A: { system: str(obj, "model", where, { optional: true }) ?? "model", output: str(obj, "answer", where) },
        B: { system: "reference", output: str(obj, "reference", where) },
      },
    };
  },
  // Two identical answers (Tie), or one answer broken (the other is better on both dimensions).
  attentionCheck: pairwiseAttention(["personalization", "logical-validity"]),
  defaultTieRule: "tie",
  defaultGuidelines: [
    "## What you judge",
    "",
    "You see a user's question, what is known about the user, and two answers. Choose the better answer:",
    "",
    "- **Personalization**: does it consider the user's characteristics well?",
    "- **Logical validity**: is it a logically valid response to the question?",
    "",
    "Press **A** or **B** for the better answer, **T** if they are of comparable quality.",
  ].join("\n"),
};
