/**
 * Plain-text renderings of logs and dialogue turns shared by the baseline methods' prompts, so
 * every method shows the model the same material in the same shape.
 */
import type { Lang } from "@/lib/llm/types";
export type { ChatMessage, Lang } from "@/lib/llm/types";

/** One behaviour log as a method sees it (PAL-Set); HiCUPID has none. */
export type LogItem = { timestamp: string; content: string };

/** One dialogue turn: the user's utterance and the assistant's answer. */
export type TurnItem = { user: string; assistant: string };

export const speaker = (lang: Lang, who: "user" | "assistant") =>
  lang === "zh" ? (who === "user" ? "用户" : "助手") : who === "user" ? "User" : "Assistant";

export function formatLogs(logs: readonly LogItem[]): string {
  return logs.map((l) => `[${l.timestamp}] ${l.content}`).join("\n");
}

export function formatTurns(lang: Lang, turns: readonly TurnItem[]): string {
  return turns.map((t) => `${speaker(lang, "user")}: ${t.user}\n${speaker(lang, "assistant")}: ${t.assistant}`).join("\n");
}

/** Pick the wording for the data set's language. */
export const pick = (lang: Lang, zh: string, en: string) => (lang === "zh" ? zh : en);
