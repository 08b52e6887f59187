/**
 * The personalised context a baseline hands to the answer prompt: labelled sections of text, in
 * order. `retrieved` in an assistant's answer is exactly these sections, so a reader sees what the
 * model saw.
 */
import { formatLogs, pick, type Lang } from "./history-text";
import type { LogContext } from "./log-context";

export type ContextSection = { label: string; items: string[] };

export function renderContext(sections: readonly ContextSection[]): string {
  return sections
    .filter((s) => s.items.length)
    .map((s) => `## ${s.label}\n${s.items.join("\n")}`)
    .join("\n\n");
}

/** Mem-PAL's shared log sections: the current session's logs, then the logs retrieved from earlier sessions. */
export function logSections(lang: Lang, logs: LogContext): ContextSection[] {
  return [
    { label: pick(lang, "本期日志", "Logs of the current period"), items: logs.current.length ? [formatLogs(logs.current)] : [] },
    { label: pick(lang, "相关的历史日志", "Related earlier logs"), items: logs.retrieved.length ? [formatLogs(logs.retrieved)] : [] },
  ];
}
