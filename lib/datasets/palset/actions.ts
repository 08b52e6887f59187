/**
 * Dialogue actions (Mem-PAL Table 7) as normalized codes, from the Chinese labels, the English
 * translation and the machine-translation variants seen in it. The original label is always kept
 * beside the code; an unknown label gets no code (and a warning in the quality report).
 */
export const USER_ACTIONS = ["topic_inquiry", "requirement_confirmation", "solution_discussion", "solution_feedback"] as const;
export const ASSISTANT_ACTIONS = ["requirement_prediction", "solution_proposal", "solution_discussion", "feedback_response"] as const;
export type ActionCode = (typeof USER_ACTIONS)[number] | (typeof ASSISTANT_ACTIONS)[number];

/** Display labels per code, in both languages. */
export const ACTION_LABELS: Record<ActionCode, { zh: string; en: string }> = {
  topic_inquiry: { zh: "话题询问", en: "Topic Inquiry" },
  requirement_confirmation: { zh: "需求确认", en: "Requirement Confirmation" },
  solution_discussion: { zh: "方案讨论", en: "Solution Discussion" },
  solution_feedback: { zh: "方案反馈", en: "Solution Feedback" },
  requirement_prediction: { zh: "需求推测", en: "Requirement Prediction" },
  solution_proposal: { zh: "方案提议", en: "Solution Proposal" },
  feedback_response: { zh: "反馈回应", en: "Feedback Response" },
};

const ZH: Record<string, ActionCode> = {
  话题询问: "topic_inquiry",
  需求确认: "requirement_confirmation",
  方案讨论: "solution_discussion",
  方案反馈: "solution_feedback",
  需求推测: "requirement_prediction",
  方案提议: "solution_proposal",
  反馈回应: "feedback_response",
};

// English: a label is a pair (subject word, act word). Synonyms cover what machine translation made
// of the Chinese labels ("Demand Speculation", "Topic Query", "Plan Proposal", ...).
const SUBJECT: Record<string, string> = {
  topic: "topic",
  requirement: "req",
  requirements: "req",
  need: "req",
  needs: "req",
  demand: "req",
  demands: "req",
  solution: "sol",
  solutions: "sol",
  plan: "sol",
  scheme: "sol",
  proposal: "sol",
  option: "sol",
  feedback: "fb",
};
const ACT: Record<string, string> = {
  inquiry: "ask",
  enquiry: "ask",
  query: "ask",
  question: "ask",
  inquire: "ask",
  inquiring: "ask",
  initiation: "ask",
  confirmation: "confirm",
  confirm: "confirm",
  confirming: "confirm",
  clarification: "confirm",
  prediction: "predict",
  predict: "predict",
  inference: "predict",
  speculation: "predict",
  guess: "predict",
  conjecture: "predict",
  estimation: "predict",
  presumption: "predict",
  discussion: "discuss",
  discuss: "discuss",
  discussing: "discuss",
  feedback: "feedback",
  proposal: "propose",
  propose: "propose",
  proposing: "propose",
  suggestion: "propose",
  recommendation: "propose",
  offer: "propose",
  response: "respond",
  reply: "respond",
  respond: "respond",
  answer: "respond",
};
const PAIRS: Record<string, ActionCode> = {
  "topic ask": "topic_inquiry",
  "req confirm": "requirement_confirmation",
  "req predict": "requirement_prediction",
  "sol discuss": "solution_discussion",
  "sol feedback": "solution_feedback",
  "sol propose": "solution_proposal",
  "fb respond": "feedback_response",
};

const cache = new Map<string, ActionCode | null>();

/** The normalized code of an action label in either language (case, spaces, `_`/`-`, brackets tolerated), or null. */
export function actionCode(label: string): ActionCode | null {
  const hit = cache.get(label);
  if (hit !== undefined) return hit;
  const code = computeCode(label);
  if (cache.size < 10_000) cache.set(label, code);
  return code;
}

function computeCode(label: string): ActionCode | null {
  const bare = label.replace(/[<>＜＞〈〉《》「」【】\[\]()（）"'“”]/g, " ").trim();
  const zh = bare.replace(/\s+/g, "");
  if (ZH[zh]) return ZH[zh];
  const snake = bare.toLowerCase().replace(/[\s_\-]+/g, "_");
  if ((USER_ACTIONS as readonly string[]).includes(snake) || (ASSISTANT_ACTIONS as readonly string[]).includes(snake))
    return snake as ActionCode;
  const words = bare
    .toLowerCase()
    .split(/[^a-z]+/)
    .filter((w) => w && w !== "of" && w !== "the" && w !== "to" && w !== "on" && w !== "user" && w !== "assistant");
  if (words.length < 2 || words.length > 3) return null;
  // "Feedback Response" and "Solution Feedback": feedback is a subject first, an act second.
  const subject = SUBJECT[words[0]];
  const act = ACT[words[words.length - 1]];
  if (subject && act && PAIRS[`${subject} ${act}`]) return PAIRS[`${subject} ${act}`];
  // "Proposal of Solution" / "Inquiry on Topic": act first.
  const act2 = ACT[words[0]];
  const subject2 = SUBJECT[words[words.length - 1]];
  if (subject2 && act2 && PAIRS[`${subject2} ${act2}`]) return PAIRS[`${subject2} ${act2}`];
  return null;
}

/** Whether the code is one the given role performs (Table 7); a mismatch is worth a warning. */
export function isRoleAction(role: "user" | "assistant", code: ActionCode): boolean {
  return ((role === "user" ? USER_ACTIONS : ASSISTANT_ACTIONS) as readonly string[]).includes(code);
}

/**
 * The topic (0-based index into the sample's topics) of each turn: a dialogue's turns belong to its
 * topics in order and each user Topic Inquiry starts the next one (docs/data-formats.md). Turns before the first
 * inquiry belong to the first topic; turns past the last topic get null.
 */
export function assignTopics(userCodes: ReadonlyArray<ActionCode | null>, topicCount: number): Array<number | null> {
  let current = -1;
  return userCodes.map((code) => {
    if (code === "topic_inquiry") current++;
    const t = Math.max(current, 0);
    return t < topicCount ? t : null;
  });
}
