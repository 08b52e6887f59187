/**
 * The assistant-side prompts of the PAL-Bench tasks (Mem-PAL Appendix E, own wording, zh and en): pure
 * functions from the task's inputs and the method's rendered memory to chat messages. Output keys follow
 * the paper: {"requirement"}, {"solution"}, {"analysis", "selected_solutions"}, {"content"}.
 * What a task may pass in is exactly what the assistant may see: never a reference, an implicit need,
 * a feedback label or anything only the judges read.
 */
import { z } from "zod";
import { block, type ChatMessage, type Lang } from "@/lib/judges/types";

export const requirementOutput = z.object({ requirement: z.string().min(1) });
export const solutionOutput = z.object({ solution: z.string().min(1) });
export const selectionOutput = z.object({ analysis: z.string(), selected_solutions: z.array(z.union([z.string(), z.number()])) });
export const utteranceOutput = z.object({ content: z.string().min(1) });
export const retrievalQueryOutput = z.object({ query: z.string().min(1) });

const memoryBlock = (memory: string, lang: Lang) =>
  lang === "zh" ? `# 用户个性化信息\n${memory || "（无）"}` : `# What you know about the user\n${memory || "(nothing)"}`;

export function requirementMessages(input: { memory: string; userQuery: string }, lang: Lang): ChatMessage[] {
  const content =
    lang === "zh"
      ? [
          "你是一个能结合用户历史理解用户需求的个性化助手，正在与用户交流。下面给出用户的个性化信息和用户当前的提问。请借助用户历史深入理解用户此刻真正的需求，并用一句话描述出来。",
          memoryBlock(input.memory, lang),
          `# 用户当前的提问\n${block(input.userQuery)}`,
          '# 输出\n结合用户的背景和与提问相关的经历，用一句话写出用户的真实需求。只输出 JSON：{"requirement": "…"}',
        ]
      : [
          "You are a personal assistant that understands what a user needs by drawing on their history. You are talking with the user. Below is what you know about the user and the user's current question. Use the history to work out what the user actually needs now and state it in one sentence.",
          memoryBlock(input.memory, lang),
          `# The user's current question\n${block(input.userQuery)}`,
          '# Output\nUse the user\'s background and the experiences behind the question to state the actual need in one sentence. Answer with JSON only: {"requirement": "…"}',
        ];
  return [{ role: "user", content: content.join("\n\n") }];
}

export function solutionMessages(input: { memory: string; requirement: string }, lang: Lang): ChatMessage[] {
  const content =
    lang === "zh"
      ? [
          "你是一个能根据用户需求提出符合其个人偏好方案的个性化助手，正在与用户交流。下面给出用户的个性化信息和用户当前的需求。请借助用户历史理解用户的偏好，为当前需求提出一个符合偏好的方案。",
          memoryBlock(input.memory, lang),
          `# 用户当前的需求\n${block(input.requirement)}`,
          '# 输出\n用一句话描述方案。只输出 JSON：{"solution": "…"}',
        ]
      : [
          "You are a personal assistant that proposes solutions suited to a user's own preferences. You are talking with the user. Below is what you know about the user and the user's current need. Use the history to understand the user's preferences and propose one solution that fits them.",
          memoryBlock(input.memory, lang),
          `# The user's current need\n${block(input.requirement)}`,
          '# Output\nDescribe the solution in one sentence. Answer with JSON only: {"solution": "…"}',
        ];
  return [{ role: "user", content: content.join("\n\n") }];
}

export type Candidate = { id: string; solution: string };

export function selectionMessages(input: { memory: string; requirement: string; candidates: Candidate[] }, lang: Lang): ChatMessage[] {
  const list = input.candidates.map((c) => `${c.id}: ${c.solution}`).join("\n");
  const content =
    lang === "zh"
      ? [
          "你是一个能根据用户需求提出符合其个人偏好方案的个性化助手，正在与用户交流。下面给出用户的个性化信息、当前需求以及 8 个候选方案（含编号）。请借助用户历史理解用户偏好，从中选出最符合偏好的 2 个方案。",
          memoryBlock(input.memory, lang),
          `# 用户当前的需求\n${block(input.requirement)}`,
          `# 候选方案（编号: 内容）\n${block(list)}`,
          '# 输出\n先对全部候选方案做整体分析，再列出最符合用户偏好的 2 个方案编号，不多不少。只输出 JSON：{"analysis": "…", "selected_solutions": ["编号", "编号"]}',
        ]
      : [
          "You are a personal assistant that proposes solutions suited to a user's own preferences. You are talking with the user. Below are what you know about the user, the current need and 8 candidate solutions with their ids. Use the history to understand the user's preferences and pick the 2 candidates that suit them best.",
          memoryBlock(input.memory, lang),
          `# The user's current need\n${block(input.requirement)}`,
          `# Candidate solutions (id: text)\n${block(list)}`,
          '# Output\nFirst analyse all candidates with the user\'s preferences in mind, then list the ids of exactly 2 candidates, no more and no fewer. Answer with JSON only: {"analysis": "…", "selected_solutions": ["id", "id"]}',
        ];
  return [{ role: "user", content: content.join("\n\n") }];
}

/** A feedback message after an invalid selection, so the regenerated answer can fix it. */
export function selectionRetryNote(reason: string, lang: Lang): string {
  return lang === "zh" ? `上一次的选择无效（${reason}）。请重新选择恰好 2 个不同的有效编号。` : `The previous selection was invalid (${reason}). Select exactly 2 different valid ids.`;
}
