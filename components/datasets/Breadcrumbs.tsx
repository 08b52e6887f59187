import Link from "next/link";

/** Where this page sits: Datasets › PAL-Set demo (en) › 0003 › 0003_sample4. The last item is the page. */
export function Breadcrumbs({ items }: { items: Array<{ href?: string; label: string }> }) {
  return (
    <nav aria-label="Breadcrumb" className="mb-2 text-sm text-slate-500">
      <ol className="flex flex-wrap items-center gap-1">
        {items.map((it, i) => (
          <li key={i} className="flex items-center gap-1">
            {i > 0 ? (
              <span aria-hidden className="text-slate-500">
                /
              </span>
            ) : null}
            {it.href && i < items.length - 1 ? (
              <Link href={it.href} className="hover:text-indigo-700 hover:underline">
                {it.label}
              </Link>
            ) : (
              <span aria-current={i === items.length - 1 ? "page" : undefined} className="text-slate-700">
                {it.label}
              </span>
            )}
          </li>
        ))}
      </ol>
    </nav>
  );
}
