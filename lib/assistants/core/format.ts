import type { Language, SessionLog } from "./types";

/** Logs as prompts show them: one "[timestamp] content" line each, in order. */
export function formatLogs(logs: SessionLog[]): string {
  return logs.map((l) => `[${l.timestamp}] ${l.content}`).join("\n");
}

/** A heading for a block of memory text, in the prompt language. */
export function section(title: Record<Language, string>, lang: Language, body: string): string {
  return body.trim() ? `## ${title[lang]}\n${body.trim()}` : "";
}
