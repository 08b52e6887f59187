/**
 * LD-Agent prompts (Li et al.): the event summary of a flushed short-term cache, and the persona
 * extractor run on each utterance for the speaker's persona bank (user or assistant). The paper's
 * extractor answers NO_TRAIT when an utterance shows no trait; here that is an empty list.
 * The wording is our own.
 */
import { z } from "zod";
import { pick, type ChatMessage, type Lang } from "../baselines/history-text";

export const eventSummarySchema = z.object({ summary: z.string().min(1) });
export const personaSchema = z.object({ traits: z.array(z.string().min(1)) });

/** `context` is the cached dialogue, one "Speaker: text" line each. */
export function eventSummaryPrompt(lang: Lang, context: readonly string[]): ChatMessage[] {
  return [
    {
      role: "system",
      content: pick(
        lang,
        "你擅长从对话中提炼事件并用简短的句子概括。你会看到一段用户与助手之间的对话。",
        "You are good at picking out the events in a conversation and summarising them in short sentences. You will see a conversation between a user and an assistant.",
      ),
    },
    {
      role: "user",
      content: pick(
        lang,
        `对话：\n${context.join("\n")}\n\n请用简短的句子概括这段对话的要点（不超过 60 字）。只输出 JSON：{"summary": "..."}。`,
        `Conversation:\n${context.join("\n")}\n\nSummarise the main points of this conversation in brief sentences (at most 30 words). Reply with JSON only: {"summary": "..."}.`,
      ),
    },
  ];
}

/** Traits of whoever said `sentence`: {"traits": []} when it reveals none. */
export function personaPrompt(lang: Lang, sentence: string): ChatMessage[] {
  return [
    {
      role: "system",
      content: pick(
        lang,
        "你善于从一个人说的话里看出他的个人特点。",
        "You are good at reading a speaker's personal traits from what they say.",
      ),
    },
    {
      role: "user",
      content: pick(
        lang,
        `下面这句话透露了说话人的哪些个人特点（身份、经历、习惯、偏好等）？每条不超过 20 字；看不出任何特点时返回空列表。\n例：“我已经退伍了，现在在地方上班。” → {"traits": ["曾经当过兵", "现在在地方工作"]}\n例：“那听起来挺不容易的。” → {"traits": []}\n句子：${sentence}\n只输出 JSON：{"traits": [...]}。`,
        `Which personal traits of the speaker (identity, experience, habits, preferences, ...) does this sentence reveal? At most 20 words each; an empty list when it shows none.\nExample: "I left the army after my full term and work in town now." -> {"traits": ["used to serve in the army", "now works in town"]}\nExample: "That sounds like quite an effort." -> {"traits": []}\nSentence: ${sentence}\nReply with JSON only: {"traits": [...]}.`,
      ),
    },
  ];
}
