/**
 * The definitions of the dialogue actions given to the user simulator (Mem-PAL Table 7 and the public
 * evaluation code's definitions, in our own words, zh and en); the assistant's are in
 * lib/assistants/core/task-prompts.ts. The user keeps its preferences to itself while discussing and
 * giving feedback.
 */
import { ACTION_LABELS, type ActionCode } from "@/lib/datasets/palset/actions";
import type { Lang } from "@/lib/llm/types";

const DEFINITIONS: Record<ActionCode, { zh: string; en: string }> = {
  topic_inquiry: {
    zh: "用户就某个话题向助手发起询问，依据 user_query 来说，可稍作调整但不改变原意；保持简短、有些含糊，不带出隐含需求和相关经历。",
    en: "The user opens a topic with the assistant, saying what user_query says (reworded if needed, same meaning); short and somewhat vague, without the implicit needs or the experiences behind them.",
  },
  requirement_confirmation: {
    zh: "用户回应助手对需求的推测：推测对了就简单肯定；推测有误就否定，并只就错的部分简短澄清，不主动交代其他没被问到的需求或背景。",
    en: "The user answers the assistant's guess about the need: a plain yes when it is right; when it is wrong, a no with a short correction of the wrong part only, volunteering no other need or background that was not asked about.",
  },
  solution_discussion: {
    zh: "针对助手提出的方案，用户先不给出明确的整体好恶，只就方案的具体细节与助手讨论；不要主动说出自己对方案的偏好。",
    en: "About the proposed solution the user gives no clear overall verdict yet and only discusses its details with the assistant, without saying what they prefer.",
  },
  solution_feedback: {
    zh: "用户按自己的偏好，对助手当前提出或讨论的方案明确表示认可或不认可；只针对这个方案表态，不交代自己的详细偏好。",
    en: "The user clearly accepts or rejects the solution just proposed or discussed, as their preferences dictate; the reaction is about that solution only and does not spell out their preferences.",
  },
  requirement_prediction: {
    zh: "助手根据对用户近期经历或背景的了解，主动推测用户提问背后的一个隐含需求，并请用户确认；不谈方案。",
    en: "The assistant infers, unprompted, one implicit need behind the user's question from what it knows of the user's recent experiences or background, and asks the user to confirm it; no solutions yet.",
  },
  solution_proposal: {
    zh: "助手针对用户在当前话题下的具体需求，提出一个符合用户偏好的方案；之前讨论过方案的，就提出一个新的方案。",
    en: "The assistant proposes one solution that suits the user's preferences for their specific need in this topic; a new one when solutions were already discussed.",
  },
  feedback_response: {
    zh: "助手简短回应用户对方案的态度；不得再提出新的方案，用户不认可时只表达歉意或遗憾。",
    en: "The assistant briefly responds to the user's attitude to the solution; it offers no further solution, and when the user disapproves it only apologises or expresses regret.",
  },
};

export function actionDefinition(code: ActionCode, lang: Lang): { label: string; definition: string } {
  return { label: ACTION_LABELS[code][lang], definition: DEFINITIONS[code][lang] };
}

/** Requirement turns: the user only asks and confirms; everything after is about solutions. */
export function isRequirementAction(code: ActionCode): boolean {
  return code === "topic_inquiry" || code === "requirement_confirmation" || code === "requirement_prediction";
}
