import Link from "next/link";
import type { LedgerCall, LedgerPage, LedgerSummary } from "@/lib/llm/ledger";

const STATUS_STYLE: Record<string, string> = {
  ok: "bg-emerald-50 text-emerald-700",
  retry: "bg-amber-50 text-amber-700",
  invalid: "bg-orange-50 text-orange-700",
  failed: "bg-rose-50 text-rose-700",
};

const FILTERS = [
  { status: null, label: "All" },
  { status: "failed", label: "Failed" },
  { status: "invalid", label: "Invalid" },
  { status: "retry", label: "Retried" },
] as const;

/**
 * The model calls one origin (a memory version, a job) caused: every attempt, with tokens and errors,
 * a page at a time (`hrefFor` makes the link of a page and status; the page keeps its other parameters).
 */
export function LedgerTable({
  calls,
  summary,
  page,
  hrefFor,
}: {
  calls: LedgerCall[];
  summary: LedgerSummary;
  page: LedgerPage;
  hrefFor: (page: number, status: string | null) => string;
}) {
  const to = page.offset + calls.length;
  return (
    <section aria-label="Model calls" className="space-y-2">
      <p className="text-sm text-slate-600" data-testid="ledger-summary">
        {summary.requests} request(s) to the endpoint, {summary.cacheHits} from the cache; {summary.byStatus.retry} retried,{" "}
        {summary.byStatus.invalid} invalid, {summary.byStatus.failed} failed; {summary.promptTokens} prompt + {summary.completionTokens}{" "}
        completion tokens ({summary.cachedTokens} cached, {summary.reasoningTokens} reasoning)
        {summary.usageUnknown > 0
          ? `; ${summary.usageUnknown} request(s) with unknown usage (timed out, dropped, or the usage reported was not believed: the error says why): their tokens are not counted`
          : ""}
        .
      </p>
      <nav aria-label="Model calls pages" className="flex flex-wrap items-center gap-x-4 gap-y-1 text-xs text-slate-600">
        <span className="flex gap-2">
          {FILTERS.map((f) => {
            const n = f.status ? summary.byStatus[f.status] : summary.rows;
            const on = page.status === f.status;
            return on ? (
              <span key={f.label} aria-current="true" className="rounded bg-slate-800 px-1.5 py-0.5 text-white">
                {f.label} ({n})
              </span>
            ) : (
              <Link key={f.label} href={hrefFor(1, f.status)} className="rounded px-1.5 py-0.5 text-sky-700 hover:bg-sky-50">
                {f.label} ({n})
              </Link>
            );
          })}
        </span>
        <span data-testid="ledger-range">{page.total === 0 ? "no calls" : `calls ${page.offset + 1}–${to} of ${page.total}`}</span>
        {page.pages > 1 ? (
          <span className="flex gap-2">
            {page.page > 1 ? (
              <Link href={hrefFor(page.page - 1, page.status)} className="text-sky-700 hover:underline">
                ‹ Previous
              </Link>
            ) : null}
            <span>
              page {page.page} of {page.pages}
            </span>
            {page.page < page.pages ? (
              <Link href={hrefFor(page.page + 1, page.status)} className="text-sky-700 hover:underline">
                Next ›
              </Link>
            ) : null}
          </span>
        ) : null}
      </nav>
      <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white">
        <table className="w-full text-xs" data-testid="ledger-table">
          <thead className="bg-slate-50 text-left uppercase tracking-wide text-slate-500">
            <tr>
              <th className="px-2 py-1.5">#</th>
              <th className="px-2 py-1.5">Purpose</th>
              <th className="px-2 py-1.5">Model</th>
              <th className="px-2 py-1.5">Try</th>
              <th className="px-2 py-1.5">Status</th>
              <th className="px-2 py-1.5">Tokens</th>
              <th className="px-2 py-1.5">ms</th>
              <th className="px-2 py-1.5">Error</th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {calls.map((c) => (
              <tr key={c.id}>
                <td className="px-2 py-1 text-slate-500">{c.id}</td>
                <td className="px-2 py-1 font-mono">
                  {c.purpose}
                  {c.replicate ? ` (r${c.replicate})` : ""}
                </td>
                <td className="px-2 py-1">{c.config === c.role ? c.model : `${c.model} (${c.config})`}</td>
                <td className="px-2 py-1">{c.attempt}</td>
                <td className="px-2 py-1">
                  <span className={`rounded px-1.5 py-0.5 ${STATUS_STYLE[c.status] ?? ""}`}>{c.cacheHit ? "cache" : c.status}</span>
                </td>
                <td
                  className="px-2 py-1"
                  title={c.usageUnknown ? (c.error ?? "the endpoint reported no usage (timed out or dropped)") : undefined}
                >
                  {c.cacheHit ? "–" : c.usageUnknown ? "unknown" : `${c.promptTokens}+${c.completionTokens}`}
                </td>
                <td className="px-2 py-1">{c.latencyMs ?? "–"}</td>
                <td className="max-w-md px-2 py-1 text-slate-600">
                  {c.error}
                  {c.rawReply ? (
                    <details>
                      <summary className="cursor-pointer text-slate-500">raw reply</summary>
                      <pre className="whitespace-pre-wrap">{c.rawReply}</pre>
                    </details>
                  ) : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
