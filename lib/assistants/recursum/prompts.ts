/**
 * RecurSum prompts: the memory of session j is M_j = LLM(M_{j-1}, session j). Mem-PAL keeps a
 * second, separate recursive summary for the logs, so there are two update prompts with the same
 * output key. The wording is our own.
 */
import { z } from "zod";
import { formatLogs, formatTurns, pick, type ChatMessage, type Lang, type LogItem, type TurnItem } from "../baselines/history-text";

export const summarySchema = z.object({ summary: z.string().min(1) });
export type SummaryOutput = z.infer<typeof summarySchema>;

const none = (lang: Lang) => pick(lang, "（暂无）", "(none yet)");

/** M_j = LLM(M_{j-1}, D_j): fold one session's dialogue into the running dialogue summary. */
export function dialogueSummaryPrompt(lang: Lang, previous: string | null, turns: readonly TurnItem[]): ChatMessage[] {
  return [
    {
      role: "system",
      content: pick(
        lang,
        '你负责维护一份关于某位用户的长期记忆。每次会拿到此前的记忆和一段新的对话，请把新对话中关于用户的需求、偏好、经历和反馈并入记忆，保留仍然有效的旧信息，修正已经过时的内容。只输出 JSON：{"summary": "更新后的记忆"}。',
        'You keep a long-term memory about one user. Each time you get the memory so far and one new conversation. Merge what the conversation reveals about the user\'s needs, preferences, experiences and feedback into the memory, keep older facts that still hold and correct those that changed. Reply with JSON only: {"summary": "the updated memory"}.',
      ),
    },
    {
      role: "user",
      content: pick(
        lang,
        `此前的记忆：\n${previous ?? none(lang)}\n\n新的对话：\n${formatTurns(lang, turns)}`,
        `Memory so far:\n${previous ?? none(lang)}\n\nNew conversation:\n${formatTurns(lang, turns)}`,
      ),
    },
  ];
}

/** L_j = LLM(L_{j-1}, logs_j): the separate recursive summary of the user's behaviour logs. */
export function logSummaryPrompt(lang: Lang, previous: string | null, logs: readonly LogItem[]): ChatMessage[] {
  return [
    {
      role: "system",
      content: pick(
        lang,
        '你负责维护一份关于某位用户近况的长期摘要，依据的是用户设备记录下的行为日志。每次会拿到此前的摘要和新一段时间的日志，请把其中反映用户生活、工作、健康、家庭和爱好的信息并入摘要，保留仍然有效的旧信息。只输出 JSON：{"summary": "更新后的摘要"}。',
        'You keep a long-term summary of one user\'s circumstances, based on the behaviour logs their devices recorded. Each time you get the summary so far and the logs of a new period. Merge what the logs show about the user\'s work, health, family, leisure and daily life into the summary, keeping older facts that still hold. Reply with JSON only: {"summary": "the updated summary"}.',
      ),
    },
    {
      role: "user",
      content: pick(
        lang,
        `此前的摘要：\n${previous ?? none(lang)}\n\n新的日志：\n${formatLogs(logs)}`,
        `Summary so far:\n${previous ?? none(lang)}\n\nNew logs:\n${formatLogs(logs)}`,
      ),
    },
  ];
}
