/**
 * Prompts of the multi-turn task (own wording, zh and en). Each role receives exactly its view:
 * - the user simulator, as in Mem-PAL's public evaluation code: profile and situation; in requirement
 *   turns the requirement framework (query, implicit needs each with its evidence, requirement); in solution
 *   turns the requirement, the general preference and the solution preference (positive and negative
 *   solutions, each with its reason; never in requirement turns); and the definition of its action;
 * - the assistant answers through its method's respond() with the shared task prompt (lib/assistants).
 * Output keys as in the paper: {"content"}.
 */
import type { ActionCode } from "@/lib/datasets/palset/actions";
import type { ChatMessage, Lang } from "@/lib/llm/types";
import { block, json } from "@/lib/judges/prompt-text";
import { renderDialogue, type NeedEntry, type SolutionEntry, type Utterance } from "@/lib/judges/dialogue-pair";
import { actionDefinition, isRequirementAction } from "./actions";

export type SimulatorProfile = { background: string; personality: string; situation: string };
export type SimulatorTopic = {
  userQuery: string;
  implicitNeeds: NeedEntry[];
  requirement: string;
  generalPreference: { pos: string[]; neg: string[] } | null;
  solutions: { pos: SolutionEntry[]; neg: SolutionEntry[] };
};

/**
 * What the simulator knows in a turn (Mem-PAL's public evaluation code): in requirement turns the requirement
 * framework; in solution turns the requirement with the general preference and the solution preference.
 */
export function simulatorView(topic: SimulatorTopic, action: ActionCode) {
  if (isRequirementAction(action))
    return { user_query: topic.userQuery, implicit_needs: topic.implicitNeeds, requirement: topic.requirement };
  return {
    requirement: topic.requirement,
    general_preference: topic.generalPreference,
    candidate_solutions: { pos_list: topic.solutions.pos, neg_list: topic.solutions.neg },
  };
}

export function simulatorMessages(
  input: { profile: SimulatorProfile; topic: SimulatorTopic; dialogue: readonly Utterance[]; turn: number; action: ActionCode },
  lang: Lang,
): ChatMessage[] {
  const { label, definition } = actionDefinition(input.action, lang);
  const view = json(simulatorView(input.topic, input.action));
  const reqTurn = isRequirementAction(input.action);
  const zh = lang === "zh";
  // A block the data set cannot fill is left out (issue 40 item 14): an empty "background" tells the model nothing true.
  const given = (title: string, text: string) => (text.trim() ? [`${title}\n${block(text)}`] : []);
  const evidence = input.topic.implicitNeeds.some((n) => typeof n !== "string" && !!n.evidence);
  const parts = zh
    ? [
        "你在扮演一位向助手寻求建议的用户。请根据下面的个人信息，在对话的每一轮说出指定类型的一句简短的话。",
        ...given("# 你的背景", input.profile.background),
        ...given("# 你的性格", input.profile.personality),
        ...given("# 你近期的情境", input.profile.situation),
        `# 你这次的需求${reqTurn ? "" : "与偏好"}\n${block(view)}`,
        reqTurn
          ? `注意：implicit_needs 是你没有说出口、希望助手自己推断出来的需求${evidence ? "，每条附有其依据（evidence，你的背景或经历）" : ""}。不要主动把它们说出来；只有当助手的推测触及它们时才确认，推测有误时简短纠正错的部分，不要顺带透露其他需求。`
          : "candidate_solutions 中每个方案附有它合或不合你心意的原因（reason）。对助手提出的方案，按你的偏好直接表达态度：不合心意就明确拒绝，甚至表达不满，不要总是顺着助手说。但偏好留在心里：讨论和反馈时只针对眼前的方案说话，不要主动讲出你的偏好。",
        `# 目前的对话\n${block(renderDialogue(input.dialogue) || "（尚未开始）")}`,
        `# 当前第 ${input.turn} 轮，你要说的话的类型：${label}\n${definition}`,
        '只输出 JSON：{"content": "你要说的一句话"}',
      ]
    : [
        "You play a user who asks an assistant for advice. Using the information below, say one short sentence of the given type in each turn of the dialogue.",
        ...given("# Your background", input.profile.background),
        ...given("# Your personality", input.profile.personality),
        ...given("# Your recent situation", input.profile.situation),
        `# Your need${reqTurn ? "" : " and preferences"} this time\n${block(view)}`,
        reqTurn
          ? `Note: implicit_needs are needs you have not said and expect the assistant to work out${evidence ? ", each with its evidence (your background or experiences)" : ""}. Do not volunteer them; confirm them only when the assistant's guess touches them, and briefly correct what a wrong guess got wrong without giving away other needs.`
          : "Each solution in candidate_solutions comes with the reason it suits you or not. React to the proposed solution as your preferences dictate: if it does not suit you, say so plainly, even with annoyance; do not simply go along with the assistant. Keep your preferences to yourself, though: when discussing or giving feedback, talk about the solution in front of you and do not spell out what you prefer.",
        `# The dialogue so far\n${block(renderDialogue(input.dialogue) || "(not started)")}`,
        `# Turn ${input.turn}; the type of what you say: ${label}\n${definition}`,
        'Answer with JSON only: {"content": "<your sentence>"}',
      ];
  return [{ role: "user", content: parts.join("\n\n") }];
}
