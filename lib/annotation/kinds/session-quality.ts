import type { CampaignKindDef } from "./types";

/** Mem-PAL's 1–3 fit scale: its categories and the keys that enter them (uploaded output ratings use it too). */
export const RATING = [
  { value: "1", label: "1 · does not match" },
  { value: "2", label: "2 · basically matches" },
  { value: "3", label: "3 · completely matches" },
];
export const RATING_KEYS = [
  { key: "1", shown: "1", label: "does not match", asksComment: true },
  { key: "2", shown: "2", label: "basically matches" },
  { key: "3", shown: "3", label: "completely matches" },
];

/** Mem-PAL's data-quality check: a sampled PAL-Set session, its logs and its dialogue each rated 1–3. */
export const sessionQuality: CampaignKindDef = {
  kind: "session-quality",
  label: "Session quality rating (PAL-Set)",
  annotatorTitle: "Rate dialogue sessions",
  description: "Rate a sampled session's logs and dialogue 1–3 against the user's profile, situation, requirements and preferences.",
  pairwise: false,
  llmJudge: "rating",
  sources: ["palset-session"],
  dimensions: [
    {
      key: "logs",
      title: "Logs",
      question: "Given the profile and the session's situation: do the logs reflect its key events?",
      scale: "ordinal",
      categories: RATING,
    },
    {
      key: "dialogue",
      title: "Dialogue",
      question: "Given the profile, requirement types and preferences: are the user's utterances consistent with them (no contradiction)?",
      scale: "ordinal",
      categories: RATING,
    },
  ],
  keys: RATING_KEYS,
  defaultTieRule: "adjudicate",
  defaultGuidelines: [
    "## What you rate",
    "",
    "Each item is one session of a synthetic user. Rate two things separately, **1 to 3**:",
    "",
    "- **Logs**: read the profile and the session's situation. Do the behaviour logs reflect the key events of that situation?",
    "- **Dialogue**: read the profile and the user's requirement types and preferences. Do the user's utterances contradict them?",
    "",
    "1 = does not match, 2 = basically matches, 3 = completely matches. Add a comment when you give a 1.",
  ].join("\n"),
};
