"use client";
import { useMemo, useState } from "react";
import { LOG_TYPES } from "@/lib/datasets/palset/log-types";
import { LogTypeBadge, logTypeLabel } from "./LogTypeBadge";

export type LogItem = { position: number; timestamp: string; logType: string | null; content: string };

const COLLAPSED = 12;

/**
 * A session's logs (the user's device records before the dialogue): timestamp, inferred type, text.
 * Filter by type and search the text on the client; long lists show the first few until expanded.
 */
export function LogList({ logs, lang }: { logs: LogItem[]; lang: string | null }) {
  const [type, setType] = useState<string>("all");
  const [query, setQuery] = useState("");
  const [expanded, setExpanded] = useState(false);

  const present = useMemo(() => {
    const m = new Map<string, number>();
    for (const l of logs) m.set(l.logType ?? "unknown", (m.get(l.logType ?? "unknown") ?? 0) + 1);
    return m;
  }, [logs]);

  const shown = useMemo(() => {
    const q = query.trim().toLowerCase();
    return logs.filter(
      (l) =>
        (type === "all" || (l.logType ?? "unknown") === type) && (!q || l.content.toLowerCase().includes(q) || l.timestamp.includes(q)),
    );
  }, [logs, type, query]);

  const filtering = type !== "all" || query.trim() !== "";
  const visible = expanded || filtering ? shown : shown.slice(0, COLLAPSED);
  const options = [...LOG_TYPES.map((t) => t.code as string), "unknown"].filter((c) => present.has(c));

  return (
    <section aria-labelledby="logs-title" data-testid="log-list" className="rounded-lg border border-slate-200 bg-white">
      <header className="flex flex-wrap items-center gap-3 border-b border-slate-100 px-4 py-2">
        <h2 id="logs-title" className="text-sm font-semibold text-slate-800">
          Logs <span className="font-normal text-slate-500">({logs.length})</span>
        </h2>
        <label className="ml-auto flex items-center gap-1 text-xs text-slate-600">
          Type
          <select
            value={type}
            onChange={(e) => setType(e.target.value)}
            className="rounded border border-slate-300 px-1 py-0.5 text-xs"
            aria-label="Filter logs by type"
          >
            <option value="all">all types</option>
            {options.map((c) => (
              <option key={c} value={c}>
                {logTypeLabel(c === "unknown" ? null : c, lang)} ({present.get(c)})
              </option>
            ))}
          </select>
        </label>
        <input
          type="search"
          value={query}
          onChange={(e) => setQuery(e.target.value)}
          placeholder="Search logs"
          aria-label="Search logs"
          className="w-44 rounded border border-slate-300 px-2 py-0.5 text-xs focus:border-indigo-500 focus:outline-none"
        />
      </header>
      {filtering ? (
        <p className="px-4 pt-2 text-xs text-slate-500" aria-live="polite">
          {shown.length} of {logs.length} logs match
        </p>
      ) : null}
      <ol className="divide-y divide-slate-100">
        {visible.map((l) => (
          <li
            key={l.position}
            data-testid="log"
            className="grid grid-cols-[7.5rem_1fr] gap-x-3 gap-y-1 px-4 py-2 text-sm sm:grid-cols-[7.5rem_8.5rem_1fr]"
          >
            <time className="whitespace-nowrap font-mono text-xs leading-5 text-slate-500">{l.timestamp}</time>
            <span className="sm:order-none">
              <LogTypeBadge code={l.logType} lang={lang} />
            </span>
            <p className="col-span-2 leading-relaxed text-slate-800 sm:col-span-1">{l.content}</p>
          </li>
        ))}
        {visible.length === 0 ? <li className="px-4 py-4 text-center text-sm text-slate-500">No log matches.</li> : null}
      </ol>
      {!filtering && shown.length > COLLAPSED ? (
        <div className="border-t border-slate-100 px-4 py-2 text-center">
          <button
            type="button"
            onClick={() => setExpanded((x) => !x)}
            aria-expanded={expanded}
            className="text-xs font-medium text-indigo-700 hover:underline"
          >
            {expanded ? "Show fewer logs" : `Show all ${shown.length} logs`}
          </button>
        </div>
      ) : null}
    </section>
  );
}
