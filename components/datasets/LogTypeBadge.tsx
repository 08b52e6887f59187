import { LOG_TYPES } from "@/lib/datasets/palset/log-types";

const STYLE: Record<string, string> = {
  web_search: "bg-sky-50 text-sky-800",
  content_publishing: "bg-fuchsia-50 text-fuchsia-800",
  content_browsing: "bg-indigo-50 text-indigo-800",
  message_sending: "bg-emerald-50 text-emerald-800",
  message_receiving: "bg-teal-50 text-teal-800",
  schedule_management: "bg-amber-50 text-amber-800",
  transaction_record: "bg-rose-50 text-rose-800",
  device_operation: "bg-slate-100 text-slate-700",
};

export function logTypeLabel(code: string | null, lang: string | null): string {
  const t = LOG_TYPES.find((x) => x.code === code);
  if (!t) return lang === "zh" ? "未识别" : "Unknown type";
  return lang === "zh" ? t.zh : t.en;
}

/** The inferred type of a log (inference, so an unknown type is shown as such, never guessed). */
export function LogTypeBadge({ code, lang }: { code: string | null; lang: string | null }) {
  return (
    <span
      data-testid="log-type"
      data-type={code ?? "unknown"}
      title={code ? `inferred log type: ${code}` : "no log type could be inferred"}
      className={`inline-block whitespace-nowrap rounded px-1.5 py-0.5 text-[11px] font-medium ${code ? (STYLE[code] ?? "bg-slate-100 text-slate-700") : "bg-white text-slate-500 ring-1 ring-inset ring-slate-200"}`}
    >
      {logTypeLabel(code, lang)}
    </span>
  );
}
