"use client";
import { useEffect, useRef, useState, useTransition } from "react";
import Link from "next/link";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import {
  flexRender,
  getCoreRowModel,
  useReactTable,
  type ColumnDef,
  type PaginationState,
  type SortingState,
  type Updater,
} from "@tanstack/react-table";
import { fmtCount } from "@/lib/datasets/browse/format";

export type ServerListState = { sort: string; dir: "asc" | "desc"; filter: string; page: number; pageSize: number; total: number };

const PAGE_SIZES = [10, 25, 50, 100];

/**
 * A @tanstack/react-table table whose sorting, filtering and paging happen on the server: state lives
 * in the URL (?sort=&dir=&q=&page=&size=), a change navigates and the server component re-renders
 * with the new page of rows. Headers are buttons (keyboard: Tab + Enter), the header row is sticky,
 * and each row's first cell is a link (mouse users may click anywhere on the row).
 */
export function DataTable<T>({
  data,
  columns,
  state,
  rowHref,
  getRowId,
  label,
  filterLabel = "Filter",
  filterPlaceholder,
  testId,
}: {
  data: T[];
  columns: ColumnDef<T, unknown>[];
  state: ServerListState;
  rowHref: (row: T) => string;
  getRowId: (row: T) => string;
  label: string;
  filterLabel?: string;
  filterPlaceholder?: string;
  testId?: string;
}) {
  const router = useRouter();
  const pathname = usePathname();
  const searchParams = useSearchParams();
  const [pending, startTransition] = useTransition();
  const pageCount = Math.max(1, Math.ceil(state.total / state.pageSize));
  const sorting: SortingState = [{ id: state.sort, desc: state.dir === "desc" }];
  const pagination: PaginationState = { pageIndex: state.page - 1, pageSize: state.pageSize };

  function navigate(changes: Record<string, string | number | null>) {
    const q = new URLSearchParams(searchParams.toString());
    for (const [k, v] of Object.entries(changes)) {
      if (v === null || v === "") q.delete(k);
      else q.set(k, String(v));
    }
    if (q.get("page") === "1") q.delete("page");
    const s = q.toString();
    startTransition(() => router.replace(`${pathname}${s ? `?${s}` : ""}`, { scroll: false }));
  }

  const table = useReactTable<T>({
    data,
    columns,
    getRowId,
    getCoreRowModel: getCoreRowModel(),
    manualSorting: true,
    manualPagination: true,
    manualFiltering: true,
    enableSortingRemoval: false,
    sortDescFirst: false,
    enableMultiSort: false,
    pageCount,
    rowCount: state.total,
    state: { sorting, pagination },
    onSortingChange: (u: Updater<SortingState>) => {
      const next = typeof u === "function" ? u(sorting) : u;
      const s = next[0];
      if (s) navigate({ sort: s.id, dir: s.desc ? "desc" : "asc", page: null });
    },
    onPaginationChange: (u: Updater<PaginationState>) => {
      const next = typeof u === "function" ? u(pagination) : u;
      navigate({ page: next.pageIndex + 1, size: next.pageSize === 25 ? null : next.pageSize });
    },
  });

  // The filter box: typed text goes to the URL after a short pause (or at once on Enter).
  const [text, setText] = useState(state.filter);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const sent = useRef(state.filter);
  // Only a change from elsewhere (back button, a link) replaces what is in the box, never the echo
  // of what was typed (which would clobber keys typed while the page was loading).
  useEffect(() => {
    if (state.filter !== sent.current) {
      sent.current = state.filter;
      setText(state.filter);
    }
  }, [state.filter]);
  function onFilter(v: string, now = false) {
    setText(v);
    if (timer.current) clearTimeout(timer.current);
    const go = () => {
      sent.current = v.trim();
      navigate({ q: v.trim() || null, page: null });
    };
    if (now) go();
    else timer.current = setTimeout(go, 350);
  }

  const from = state.total === 0 ? 0 : (state.page - 1) * state.pageSize + 1;
  const to = Math.min(state.total, state.page * state.pageSize);

  return (
    <div data-testid={testId} className="rounded-lg border border-slate-200 bg-white">
      <div className="flex flex-wrap items-center gap-3 border-b border-slate-100 px-3 py-2">
        <form
          role="search"
          onSubmit={(e) => {
            e.preventDefault();
            onFilter(text, true);
          }}
          className="flex items-center gap-2"
        >
          <label className="text-xs text-slate-600" htmlFor={`${testId ?? "table"}-filter`}>
            {filterLabel}
          </label>
          <input
            id={`${testId ?? "table"}-filter`}
            type="search"
            value={text}
            onChange={(e) => onFilter(e.target.value)}
            placeholder={filterPlaceholder}
            className="w-56 rounded border border-slate-300 px-2 py-1 text-sm focus:border-indigo-500 focus:outline-none"
          />
        </form>
        <p className="text-xs text-slate-500" aria-live="polite">
          {state.total === 0 ? "No rows" : `${fmtCount(from)}–${fmtCount(to)} of ${fmtCount(state.total)}`}
          {pending ? <span className="ml-2 text-indigo-600">loading…</span> : null}
        </p>
      </div>
      <div className={`max-h-[70vh] overflow-auto transition-opacity ${pending ? "opacity-60" : ""}`}>
        <table className="w-full text-sm" aria-label={label}>
          <thead className="text-left text-xs uppercase tracking-wide text-slate-500">
            {table.getHeaderGroups().map((hg) => (
              <tr key={hg.id}>
                {hg.headers.map((h) => {
                  const sorted = h.column.getIsSorted();
                  const canSort = h.column.getCanSort();
                  const meta = h.column.columnDef.meta as { numeric?: boolean } | undefined;
                  return (
                    <th
                      key={h.id}
                      scope="col"
                      aria-sort={sorted === "asc" ? "ascending" : sorted === "desc" ? "descending" : undefined}
                      className={`sticky top-0 z-10 border-b border-slate-200 bg-slate-50 px-3 py-2 font-medium ${meta?.numeric ? "text-right" : ""}`}
                    >
                      {canSort ? (
                        <button
                          type="button"
                          onClick={h.column.getToggleSortingHandler()}
                          className={`inline-flex items-center gap-1 rounded uppercase tracking-wide hover:text-slate-800 focus-visible:outline-2 focus-visible:outline-indigo-500 ${sorted ? "text-slate-800" : ""}`}
                        >
                          {flexRender(h.column.columnDef.header, h.getContext())}
                          <span aria-hidden className="text-[10px]">
                            {sorted === "asc" ? "▲" : sorted === "desc" ? "▼" : "↕"}
                          </span>
                        </button>
                      ) : (
                        flexRender(h.column.columnDef.header, h.getContext())
                      )}
                    </th>
                  );
                })}
              </tr>
            ))}
          </thead>
          <tbody className="divide-y divide-slate-100">
            {table.getRowModel().rows.map((row) => (
              <tr
                key={row.id}
                data-row-id={row.id}
                className="cursor-pointer hover:bg-indigo-50/40 focus-within:bg-indigo-50/60"
                onClick={(e) => {
                  if ((e.target as HTMLElement).closest("a,button,input,select")) return;
                  router.push(rowHref(row.original));
                }}
              >
                {row.getVisibleCells().map((cell, i) => {
                  const meta = cell.column.columnDef.meta as { numeric?: boolean } | undefined;
                  return (
                    <td key={cell.id} className={`px-3 py-1.5 ${meta?.numeric ? "text-right tabular-nums" : ""}`}>
                      {i === 0 ? (
                        <Link
                          href={rowHref(row.original)}
                          className="font-medium text-indigo-700 hover:underline focus-visible:outline-2 focus-visible:outline-indigo-500"
                        >
                          {flexRender(cell.column.columnDef.cell, cell.getContext())}
                        </Link>
                      ) : (
                        flexRender(cell.column.columnDef.cell, cell.getContext())
                      )}
                    </td>
                  );
                })}
              </tr>
            ))}
            {data.length === 0 ? (
              <tr>
                <td colSpan={columns.length} className="px-3 py-6 text-center text-slate-500">
                  {state.filter ? `Nothing matches “${state.filter}”.` : "No rows."}
                </td>
              </tr>
            ) : null}
          </tbody>
        </table>
      </div>
      <nav
        aria-label="Pagination"
        className="flex flex-wrap items-center justify-between gap-2 border-t border-slate-100 px-3 py-2 text-sm"
      >
        <label className="flex items-center gap-2 text-xs text-slate-600">
          Rows per page
          <select
            value={state.pageSize}
            onChange={(e) => table.setPagination({ pageIndex: 0, pageSize: Number(e.target.value) })}
            className="rounded border border-slate-300 px-1 py-0.5 text-sm"
          >
            {PAGE_SIZES.map((n) => (
              <option key={n} value={n}>
                {n}
              </option>
            ))}
          </select>
        </label>
        <div className="flex items-center gap-1">
          <PagerButton onClick={() => table.firstPage()} disabled={!table.getCanPreviousPage()} label="First page">
            «
          </PagerButton>
          <PagerButton onClick={() => table.previousPage()} disabled={!table.getCanPreviousPage()} label="Previous page">
            ‹ Prev
          </PagerButton>
          <span className="px-2 text-xs tabular-nums text-slate-600">
            Page {state.page} of {pageCount}
          </span>
          <PagerButton onClick={() => table.nextPage()} disabled={!table.getCanNextPage()} label="Next page">
            Next ›
          </PagerButton>
          <PagerButton onClick={() => table.lastPage()} disabled={!table.getCanNextPage()} label="Last page">
            »
          </PagerButton>
        </div>
      </nav>
    </div>
  );
}

function PagerButton({
  onClick,
  disabled,
  label,
  children,
}: {
  onClick: () => void;
  disabled: boolean;
  label: string;
  children: React.ReactNode;
}) {
  return (
    <button
      type="button"
      onClick={onClick}
      disabled={disabled}
      aria-label={label}
      className="rounded border border-slate-300 px-2 py-0.5 text-xs text-slate-700 hover:bg-slate-100 disabled:cursor-not-allowed disabled:opacity-40"
    >
      {children}
    </button>
  );
}
