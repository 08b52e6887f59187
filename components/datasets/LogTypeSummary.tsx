import { LOG_TYPES } from "@/lib/datasets/palset/log-types";
import { fmtCount } from "@/lib/datasets/browse/format";
import { LogTypeBadge } from "./LogTypeBadge";

/** How a user's logs split over the (inferred) log types: one badge and count per type. */
export function LogTypeSummary({ counts, lang }: { counts: Record<string, number>; lang: string | null }) {
  const order = [...LOG_TYPES.map((t) => t.code as string), "unknown"];
  const keys = [...order.filter((k) => counts[k]), ...Object.keys(counts).filter((k) => !order.includes(k))];
  if (keys.length === 0) return null;
  return (
    <ul aria-label="Logs by inferred type" className="flex flex-wrap gap-2 text-xs">
      {keys.map((k) => (
        <li key={k} className="flex items-center gap-1 rounded border border-slate-200 bg-white px-1.5 py-1">
          <LogTypeBadge code={k === "unknown" ? null : k} lang={lang} />
          <span className="tabular-nums text-slate-700">{fmtCount(counts[k])}</span>
        </li>
      ))}
    </ul>
  );
}
