/**
 * The pairwise dialogue judges of Mem-PAL's multi-turn task (FairEval style): two dialogues of the same
 * user on the same topic, shown as "assistant-1" and "assistant-2", are scored 1–10 each on one dimension.
 * Requirement dimension: background, personality, situation, user query, implicit needs (each with its
 * evidence: the requirement framework), requirement. Preference dimension: background, personality, situation,
 * requirement, general preference, pos/neg solutions (each with its reason: the solution preference). The
 * inputs are those of Mem-PAL's public evaluation code.
 * Output keys as in the paper: {"analysis": {"assistant-1", "assistant-2", "overall"}, "scores": {...}}.
 * The verdict per dimension is FairEval's: six separately sampled calls, three with A shown first and three
 * with B first, scores mapped back to their side and averaged; the higher average wins, equal averages (or
 * within the tie margin) tie.
 */
import { z } from "zod";
import { fairEval, type FairEvalResult, type PairJudgment } from "@/lib/metrics";
import type { ChatMessage, Lang } from "@/lib/llm/types";
import { block, json } from "./prompt-text";
import { callReplicate, type Judge } from "./judge";

/** 2: the requirement framework (need with evidence) and the solution preference (solution with reason). */
export const DIALOGUE_JUDGE_VERSION = 2;
export const DIMENSIONS = ["requirement", "preference"] as const;
export type Dimension = (typeof DIMENSIONS)[number];

const score = z.number().int().min(1).max(10);
export const dialogueJudgeOutput = z.object({
  analysis: z.object({ "assistant-1": z.string(), "assistant-2": z.string(), overall: z.string() }),
  scores: z.object({ "assistant-1": score, "assistant-2": score }),
});
export type DialogueJudgeOutput = z.infer<typeof dialogueJudgeOutput>;

export type Utterance = { role: "user" | "assistant"; content: string };

export type UserInfo = { background: string; personality: string; situation: string };
/**
 * An implicit need as PAL-Set's requirement framework gives it (the need with the evidence behind it), or a
 * bare need where the data set has no framework; likewise a solution with the reason it suits or not.
 */
export type NeedEntry = string | { need: string; evidence?: string };
export type SolutionEntry = string | { solution: string; reason?: string };
export type RequirementJudgeInput = UserInfo & { userQuery: string; implicitNeeds: NeedEntry[]; requirement: string };
export type PreferenceJudgeInput = UserInfo & {
  requirement: string;
  generalPreference: { pos: string[]; neg: string[] };
  solutions: { pos: SolutionEntry[]; neg: SolutionEntry[] };
};

export function renderDialogue(d: readonly Utterance[]): string {
  return d.map((u) => `${u.role}: ${u.content}`).join("\n");
}

type Dialogues = { first: readonly Utterance[]; second: readonly Utterance[] };

function frame(lang: Lang, info: UserInfo, needBlock: string, d: Dialogues, focus: string[]): ChatMessage[] {
  const zh = lang === "zh";
  const parts = zh
    ? [
        "你是对话评估员。同一位用户就同一话题分别与两个助手（assistant-1、assistant-2）进行了对话。助手应先推断用户的需求，再提出符合用户偏好的方案。请按下面的维度比较两段对话中助手的表现。",
        `# 用户背景\n${block(info.background)}`,
        `# 用户性格\n${block(info.personality)}`,
        `# 用户近期情境\n${block(info.situation)}`,
        needBlock,
        `# assistant-1 的对话\n${block(renderDialogue(d.first))}`,
        `# assistant-2 的对话\n${block(renderDialogue(d.second))}`,
        ...focus,
        "# 输出要求",
        "先分别分析两个助手，再做总体比较；然后给两个助手各打 1 到 10 的整数分。两个助手的编号是随机分配的，与表现无关，请不要让出现顺序影响判断。",
        '只输出如下 JSON：{"analysis": {"assistant-1": "…", "assistant-2": "…", "overall": "…"}, "scores": {"assistant-1": 分数, "assistant-2": 分数}}',
      ]
    : [
        "You evaluate dialogues. The same user talked about the same topic with two different assistants (assistant-1 and assistant-2). An assistant should first work out what the user needs and then propose solutions that suit the user's preferences. Compare the assistants on the dimension described below.",
        `# User background\n${block(info.background)}`,
        `# User personality\n${block(info.personality)}`,
        `# The user's recent situation\n${block(info.situation)}`,
        needBlock,
        `# Dialogue with assistant-1\n${block(renderDialogue(d.first))}`,
        `# Dialogue with assistant-2\n${block(renderDialogue(d.second))}`,
        ...focus,
        "# Output",
        "Analyse each assistant first, then compare them overall; then give each an integer score from 1 to 10. The names assistant-1 and assistant-2 were assigned at random: their order says nothing about quality and must not sway you.",
        'Answer with this JSON only: {"analysis": {"assistant-1": "…", "assistant-2": "…", "overall": "…"}, "scores": {"assistant-1": <score>, "assistant-2": <score>}}',
      ];
  return [{ role: "user", content: parts.join("\n\n") }];
}

export function requirementJudgeMessages(input: RequirementJudgeInput, d: Dialogues, lang: Lang): ChatMessage[] {
  const need = json({ user_query: input.userQuery, implicit_needs: input.implicitNeeds, requirement: input.requirement });
  const zh = lang === "zh";
  const needBlock = zh
    ? `# 用户当前的需求\nuser_query 是用户最初的提问；implicit_needs 是用户没有说出、希望助手主动推断的需求，每条附有其依据（用户的背景或经历）；requirement 是两者的概括。\n${block(need)}`
    : `# The user's current need\nuser_query is what the user first asked; implicit_needs are needs the user did not state and expects the assistant to infer, each with the evidence from the user's background or experiences behind it; requirement sums both up.\n${block(need)}`;
  const focus = zh
    ? [
        "# 评估维度：需求理解",
        "1. 看助手是否主动推断出用户没有说出的隐含需求及相关背景；推断越具体准确得分越高，含糊或错误则得分低。",
        "2. 用户澄清之后助手只是复述，不加分；越早给出具体准确的推断越好。",
        "3. 只评估需求推断，不考虑方案提议与讨论。",
      ]
    : [
        "# Dimension: understanding the need",
        "1. Did the assistant infer, unprompted, the implicit needs and the background the user did not mention? Specific, accurate inferences score high; vague or wrong ones score low.",
        "2. Repeating what the user has already clarified earns nothing; an accurate inference made earlier is worth more.",
        "3. Judge the inference of the need only, not the solutions proposed or discussed.",
      ];
  return frame(lang, input, needBlock, d, focus);
}

export function preferenceJudgeMessages(input: PreferenceJudgeInput, d: Dialogues, lang: Lang): ChatMessage[] {
  const pref = json({
    requirement: input.requirement,
    general_preference: input.generalPreference,
    candidate_solutions: { pos_list: input.solutions.pos, neg_list: input.solutions.neg },
  });
  const zh = lang === "zh";
  const needBlock = zh
    ? `# 用户当前的需求与相关偏好\nrequirement 是用户当前需求；general_preference 的 pos/neg 概括了用户对这类需求喜欢和不喜欢的方案；candidate_solutions 的 pos_list/neg_list 各列出两个符合/不符合用户偏好的具体方案，每个附有原因。\n${block(pref)}`
    : `# The user's current need and preferences\nrequirement is the current need; general_preference (pos/neg) sums up the kinds of solution the user likes and dislikes for this type of need; candidate_solutions lists two concrete solutions that suit (pos_list) and two that do not suit (neg_list) the user, each with the reason.\n${block(pref)}`;
  const focus = zh
    ? [
        "# 评估维度：偏好理解",
        "1. 看助手提出的方案是否符合用户的个性化偏好：与正向偏好高度一致得分高，不一致甚至接近负向偏好得分低。",
        "2. 在用户表明偏好之前就提出合适方案的助手应优先得到高分。",
        "3. 只评估方案与偏好的匹配，不考虑需求推断与确认。",
      ]
    : [
        "# Dimension: understanding the preferences",
        "1. Do the solutions the assistant proposes suit the user's preferences? Close to the positive preferences scores high; off them, or close to the negative ones, scores low.",
        "2. Proposing suitable solutions before the user reveals the preference is worth more.",
        "3. Judge how the solutions match the preferences only, not the inference or confirmation of the need.",
      ];
  return frame(lang, input, needBlock, d, focus);
}

export function dialogueJudgeMessages(
  dimension: Dimension,
  input: RequirementJudgeInput & PreferenceJudgeInput,
  d: Dialogues,
  lang: Lang,
): ChatMessage[] {
  return dimension === "requirement" ? requirementJudgeMessages(input, d, lang) : preferenceJudgeMessages(input, d, lang);
}

/** Judgments per pair and dimension, half in each order (FairEval). */
export const JUDGMENTS_PER_PAIR = 6;

export type DialogueJudgeInfo = RequirementJudgeInput & PreferenceJudgeInput;

export type DialoguePairInput = {
  dimension: Dimension;
  info: DialogueJudgeInfo;
  /** Side A's dialogue (the method under study, or a campaign's canonical slot A) and side B's. */
  a: readonly Utterance[];
  b: readonly Utterance[];
  lang: Lang;
  /** A tie when |mean A − mean B| ≤ margin. */
  tieMargin: number;
};

/** One call, stored as it was shown (order, scores in display order) and mapped back to the sides. */
export type DialogueJudgment = PairJudgment & {
  scoreA: number;
  scoreB: number;
  replicate: number;
  analysis: DialogueJudgeOutput["analysis"];
};

export type DialoguePairVerdict = FairEvalResult & { judgments: DialogueJudgment[] };

export const dialoguePairJudge: Judge<DialoguePairInput, DialoguePairVerdict> = {
  name: "dialogue-pair",
  label: "Pairwise dialogue judge (FairEval: 6 calls per dimension, both orders)",
  version: DIALOGUE_JUDGE_VERSION,
  calls: JUDGMENTS_PER_PAIR,
  async verdict(at, input) {
    // The six calls go out together: their replicate indices differ, so none waits for or copies another.
    const judgments = await Promise.all(
      Array.from({ length: JUDGMENTS_PER_PAIR }, async (_, k): Promise<DialogueJudgment> => {
        const order = k < JUDGMENTS_PER_PAIR / 2 ? ("AB" as const) : ("BA" as const);
        const [first, second] = order === "AB" ? [input.a, input.b] : [input.b, input.a];
        const replicate = callReplicate(at.replicate, JUDGMENTS_PER_PAIR, k);
        const r = await at.model.json({
          purpose: `${at.purpose}.${input.dimension}`,
          messages: dialogueJudgeMessages(input.dimension, input.info, { first, second }, input.lang),
          schema: dialogueJudgeOutput,
          replicate,
        });
        const [scoreFirst, scoreSecond] = [r.value.scores["assistant-1"], r.value.scores["assistant-2"]];
        const [scoreA, scoreB] = order === "AB" ? [scoreFirst, scoreSecond] : [scoreSecond, scoreFirst];
        return { order, scoreFirst, scoreSecond, scoreA, scoreB, replicate, analysis: r.value.analysis };
      }),
    );
    return { ...fairEval(judgments, { margin: input.tieMargin })!, judgments };
  },
};
