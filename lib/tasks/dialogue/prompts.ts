/**
 * Prompts of the multi-turn task (own wording, zh and en). Each role receives exactly its view:
 * - the user simulator: profile, situation, the topic's query/implicit needs/requirement; in solution
 *   turns also the general preference and the positive and negative solutions (never in requirement
 *   turns), and the definition of the action it must perform;
 * - the assistant: its rendered memory, the dialogue so far and the definition of its action;
 * - the retrieval query: the dialogue so far only.
 * Output keys as in the paper: {"content"}; the retrieval query is {"query"}.
 */
import type { ActionCode } from "@/lib/datasets/palset/actions";
import { block, json, type ChatMessage, type Lang } from "@/lib/judges/types";
import { renderDialogue, type Utterance } from "@/lib/judges/dialogue-pair";
import { actionDefinition, isRequirementAction } from "./actions";

export type SimulatorProfile = { background: string; personality: string; situation: string };
export type SimulatorTopic = {
  userQuery: string;
  implicitNeeds: string[];
  requirement: string;
  generalPreference: { pos: string[]; neg: string[] } | null;
  solutions: { pos: string[]; neg: string[] };
};

/** What the simulator may know in a turn: preferences and solutions only once solutions are discussed. */
export function simulatorView(topic: SimulatorTopic, action: ActionCode) {
  const need = { user_query: topic.userQuery, implicit_needs: topic.implicitNeeds, requirement: topic.requirement };
  if (isRequirementAction(action)) return need;
  return { ...need, general_preference: topic.generalPreference, solutions: { pos_list: topic.solutions.pos, neg_list: topic.solutions.neg } };
}

export function simulatorMessages(
  input: { profile: SimulatorProfile; topic: SimulatorTopic; dialogue: readonly Utterance[]; turn: number; action: ActionCode },
  lang: Lang,
): ChatMessage[] {
  const { label, definition } = actionDefinition(input.action, lang);
  const view = json(simulatorView(input.topic, input.action));
  const reqTurn = isRequirementAction(input.action);
  const zh = lang === "zh";
  const parts = zh
    ? [
        "你在扮演一位向助手寻求建议的用户。请根据下面的个人信息，在对话的每一轮说出指定类型的一句话。",
        `# 你的背景\n${block(input.profile.background)}`,
        `# 你的性格\n${block(input.profile.personality)}`,
        `# 你近期的情境\n${block(input.profile.situation)}`,
        `# 你这次的需求${reqTurn ? "" : "与偏好"}\n${block(view)}`,
        reqTurn
          ? "注意：implicit_needs 是你没有说出口、希望助手自己推断出来的内容。不要主动把它们说出来；只有当助手的推测触及它们时才确认，推测有误时直接纠正。"
          : "对助手提出的方案，按你的偏好直接表达态度：不合心意就明确拒绝，甚至表达不满，不要总是顺着助手说。",
        `# 目前的对话\n${block(renderDialogue(input.dialogue) || "（尚未开始）")}`,
        `# 当前第 ${input.turn} 轮，你要说的话的类型：${label}\n${definition}`,
        '只输出 JSON：{"content": "你要说的一句话"}',
      ]
    : [
        "You play a user who asks an assistant for advice. Using the information below, say one sentence of the given type in each turn of the dialogue.",
        `# Your background\n${block(input.profile.background)}`,
        `# Your personality\n${block(input.profile.personality)}`,
        `# Your recent situation\n${block(input.profile.situation)}`,
        `# Your need${reqTurn ? "" : " and preferences"} this time\n${block(view)}`,
        reqTurn
          ? "Note: implicit_needs are things you have not said and expect the assistant to work out. Do not volunteer them; confirm them only when the assistant's guess touches them, and correct a wrong guess plainly."
          : "React to the proposed solution as your preferences dictate: if it does not suit you, say so plainly, even with annoyance; do not simply go along with the assistant.",
        `# The dialogue so far\n${block(renderDialogue(input.dialogue) || "(not started)")}`,
        `# Turn ${input.turn}; the type of what you say: ${label}\n${definition}`,
        'Answer with JSON only: {"content": "<your sentence>"}',
      ];
  return [{ role: "user", content: parts.join("\n\n") }];
}

export function assistantTurnMessages(
  input: { memory: string; dialogue: readonly Utterance[]; turn: number; action: ActionCode },
  lang: Lang,
): ChatMessage[] {
  const { label, definition } = actionDefinition(input.action, lang);
  const zh = lang === "zh";
  const parts = zh
    ? [
        "你是一个个性化对话助手，正在与用户对话。请结合对用户的了解，按指定的回复类型给出合适的回复。",
        `# 用户个性化信息\n${input.memory || "（无）"}`,
        `# 目前的对话\n${block(renderDialogue(input.dialogue))}`,
        `# 当前第 ${input.turn} 轮，你的回复类型：${label}\n${definition}`,
        '回复 1 到 3 句即可。只输出 JSON：{"content": "你的回复"}',
      ]
    : [
        "You are a personal dialogue assistant talking with a user. Drawing on what you know about the user, reply with the given type of reply.",
        `# What you know about the user\n${input.memory || "(nothing)"}`,
        `# The dialogue so far\n${block(renderDialogue(input.dialogue))}`,
        `# Turn ${input.turn}; your type of reply: ${label}\n${definition}`,
        'One to three sentences are enough. Answer with JSON only: {"content": "<your reply>"}',
      ];
  return [{ role: "user", content: parts.join("\n\n") }];
}

/** The assistant first sums up, from the dialogue alone, what the user needs: that is its retrieval query. */
export function retrievalQueryMessages(input: { dialogue: readonly Utterance[] }, lang: Lang): ChatMessage[] {
  const content =
    lang === "zh"
      ? `根据下面的对话，用一句话概括用户目前表达出的需求，用作检索记忆的查询。\n\n${block(renderDialogue(input.dialogue))}\n\n只输出 JSON：{"query": "…"}`
      : `From the dialogue below, sum up in one sentence what the user has asked for so far; it is used as the query to search memory.\n\n${block(renderDialogue(input.dialogue))}\n\nAnswer with JSON only: {"query": "…"}`;
  return [{ role: "user", content }];
}
