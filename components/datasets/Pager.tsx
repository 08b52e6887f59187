import Link from "next/link";
import { fmtCount } from "@/lib/datasets/browse/format";

/** Server-rendered paging links: « ‹ Page n of m › » plus "a–b of total". */
export function Pager({ page, pageSize, total, href }: { page: number; pageSize: number; total: number; href: (page: number) => string }) {
  const pages = Math.max(1, Math.ceil(total / pageSize));
  const from = total === 0 ? 0 : (page - 1) * pageSize + 1;
  const to = Math.min(total, page * pageSize);
  const link = (p: number, label: string, aria: string, enabled: boolean) =>
    enabled ? (
      <Link
        href={href(p)}
        aria-label={aria}
        className="rounded border border-slate-300 bg-white px-2 py-0.5 text-xs text-slate-700 hover:bg-slate-100"
      >
        {label}
      </Link>
    ) : (
      <span aria-disabled className="rounded border border-slate-200 px-2 py-0.5 text-xs text-slate-500">
        {label}
      </span>
    );
  return (
    <nav aria-label="Pagination" className="flex flex-wrap items-center justify-between gap-2 text-sm">
      <p className="text-xs text-slate-500">{total === 0 ? "No items" : `${fmtCount(from)}–${fmtCount(to)} of ${fmtCount(total)}`}</p>
      <div className="flex items-center gap-1">
        {link(1, "«", "First page", page > 1)}
        {link(page - 1, "‹ Prev", "Previous page", page > 1)}
        <span className="px-2 text-xs tabular-nums text-slate-600">
          Page {page} of {pages}
        </span>
        {link(page + 1, "Next ›", "Next page", page < pages)}
        {link(pages, "»", "Last page", page < pages)}
      </div>
    </nav>
  );
}
