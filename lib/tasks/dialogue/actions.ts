/**
 * The definitions of the dialogue actions (Mem-PAL Table 7) given to whoever must perform an action:
 * the user simulator for user actions, the assistant for assistant actions. Own wording, zh and en.
 */
import { ACTION_LABELS, type ActionCode } from "@/lib/datasets/palset/actions";
import type { Lang } from "@/lib/llm/types";

const DEFINITIONS: Record<ActionCode, { zh: string; en: string }> = {
  topic_inquiry: {
    zh: "用户就某个话题向助手发起询问，通常简短且有些含糊。",
    en: "The user opens a topic with the assistant; the question is usually short and somewhat vague.",
  },
  requirement_confirmation: {
    zh: "用户回应助手对需求的推测，确认或纠正自己真实的需求。",
    en: "The user answers the assistant's guess about the need, confirming or correcting what they actually need.",
  },
  solution_discussion: {
    zh: "针对助手提出的方案，不给出明确的整体好恶，而是就方案的具体细节与对方讨论（助手一方：回应用户的疑问，结合用户情况进一步讨论并尝试说服用户接受方案）。",
    en: "About the proposed solution, no clear overall verdict is given; instead its details are discussed (for the assistant: answer the user's points, discuss the proposal in the light of the user's situation and try to win the user over).",
  },
  solution_feedback: {
    zh: "用户对助手提出的方案明确表示认可或不认可。",
    en: "The user clearly accepts or rejects the solution the assistant proposed.",
  },
  requirement_prediction: {
    zh: "助手根据对用户的了解，主动推测用户提问背后的隐含需求。",
    en: "The assistant infers, unprompted, the implicit need behind the user's question from what it knows about the user.",
  },
  solution_proposal: {
    zh: "助手针对用户在当前话题下的具体需求，提出一个方案作为建议。",
    en: "The assistant proposes one solution for the user's specific need in this topic.",
  },
  feedback_response: {
    zh: "助手回应用户对方案的态度；不得再提出新的方案，用户不认可时只表达歉意或遗憾。",
    en: "The assistant responds to the user's attitude to the solution; it offers no further solution, and when the user disapproves it only apologises or expresses regret.",
  },
};

export function actionDefinition(code: ActionCode, lang: Lang): { label: string; definition: string } {
  return { label: ACTION_LABELS[code][lang], definition: DEFINITIONS[code][lang] };
}

/** Requirement turns: the user only asks and confirms; everything after is about solutions. */
export function isRequirementAction(code: ActionCode): boolean {
  return code === "topic_inquiry" || code === "requirement_confirmation" || code === "requirement_prediction";
}
