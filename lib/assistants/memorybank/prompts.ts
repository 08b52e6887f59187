/**
 * MemoryBank prompts (Zhong et al., as Mem-PAL describes it): per session an event summary and a
 * daily user portrait; across sessions a global summary of events and a global portrait, each
 * updated from the previous one and the new session's. The wording is our own.
 */
import { z } from "zod";
import { formatTurns, pick, type ChatMessage, type Lang, type TurnItem } from "../baselines/history-text";

export const eventSchema = z.object({ summary: z.string().min(1) });
export const portraitSchema = z.object({ portrait: z.string().min(1) });

const none = (lang: Lang) => pick(lang, "（暂无）", "(none yet)");

/** The events of one session (one day of conversation) in a few sentences. */
export function eventSummaryPrompt(lang: Lang, date: string, turns: readonly TurnItem[]): ChatMessage[] {
  return [
    {
      role: "system",
      content: pick(
        lang,
        '请概括一段用户与助手的对话中发生的主要事件：用户提出了什么、讨论了哪些方案、用户有何反馈。用几句话写清楚。只输出 JSON：{"summary": "..."}。',
        'Summarise the main events of one conversation between a user and an assistant: what the user asked for, which solutions were discussed, how the user reacted. A few sentences. Reply with JSON only: {"summary": "..."}.',
      ),
    },
    {
      role: "user",
      content: pick(
        lang,
        `日期：${date}\n对话：\n${formatTurns(lang, turns)}`,
        `Date: ${date}\nConversation:\n${formatTurns(lang, turns)}`,
      ),
    },
  ];
}

/** What this session shows about the user's personality, mood and preferences. */
export function dailyPortraitPrompt(lang: Lang, date: string, turns: readonly TurnItem[]): ChatMessage[] {
  return [
    {
      role: "system",
      content: pick(
        lang,
        '请根据一段对话分析用户：性格特点、当时的情绪、表现出的偏好和做事方式，以及助手之后应当怎样回应更合适。只输出 JSON：{"portrait": "..."}。',
        'From one conversation, describe the user: personality traits, mood at the time, the preferences and habits they showed, and how the assistant should respond to them from now on. Reply with JSON only: {"portrait": "..."}.',
      ),
    },
    {
      role: "user",
      content: pick(
        lang,
        `日期：${date}\n对话：\n${formatTurns(lang, turns)}`,
        `Date: ${date}\nConversation:\n${formatTurns(lang, turns)}`,
      ),
    },
  ];
}

/** The global summary folded forward with one more session's events. */
export function globalSummaryPrompt(lang: Lang, previous: string | null, date: string, event: string): ChatMessage[] {
  return [
    {
      role: "system",
      content: pick(
        lang,
        '你维护一份用户所有历史事件的总览。请把新一天的事件摘要并入已有总览，突出反复出现或仍然重要的事情，保持简洁。只输出 JSON：{"summary": "..."}。',
        'You keep an overview of all of a user\'s past events. Fold the new day\'s event summary into the existing overview, bringing out what recurs or still matters, and keep it concise. Reply with JSON only: {"summary": "..."}.',
      ),
    },
    {
      role: "user",
      content: pick(
        lang,
        `已有总览：\n${previous ?? none(lang)}\n\n${date} 的事件：\n${event}`,
        `Overview so far:\n${previous ?? none(lang)}\n\nEvents of ${date}:\n${event}`,
      ),
    },
  ];
}

/** The global portrait folded forward with one more session's portrait. */
export function globalPortraitPrompt(lang: Lang, previous: string | null, date: string, portrait: string): ChatMessage[] {
  return [
    {
      role: "system",
      content: pick(
        lang,
        '你维护一份用户的整体画像（性格、偏好、习惯以及合适的回应方式）。请结合新一天的观察更新画像，保留稳定的特点，修正有变化的地方。只输出 JSON：{"portrait": "..."}。',
        'You keep an overall portrait of a user (personality, preferences, habits and the way to respond to them). Update it with the new day\'s observations, keeping stable traits and revising what changed. Reply with JSON only: {"portrait": "..."}.',
      ),
    },
    {
      role: "user",
      content: pick(
        lang,
        `已有画像：\n${previous ?? none(lang)}\n\n${date} 的观察：\n${portrait}`,
        `Portrait so far:\n${previous ?? none(lang)}\n\nObservations of ${date}:\n${portrait}`,
      ),
    },
  ];
}
