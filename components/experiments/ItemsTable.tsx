"use client";
/**
 * The experiment's items (one row per job): filter by task, method, status, score range and item text,
 * sort by any column, 50 rows a page. A failed item shows its error in the row.
 */
import { useMemo, useState } from "react";
import Link from "next/link";
import {
  createColumnHelper,
  flexRender,
  getCoreRowModel,
  getFilteredRowModel,
  getPaginationRowModel,
  getSortedRowModel,
  type ColumnFiltersState,
  type FilterFn,
  type SortingState,
  useReactTable,
} from "@tanstack/react-table";
import type { ItemRow } from "@/lib/experiments/items";
import { StarButton } from "./StarButton";

const col = createColumnHelper<ItemRow>();
const exact: FilterFn<ItemRow> = (row, id, value) => !value || row.getValue(id) === value;
const range: FilterFn<ItemRow> = (row, id, value: [string, string]) => {
  const x = row.getValue<number | null>(id);
  const [lo, hi] = value ?? ["", ""];
  if (lo === "" && hi === "") return true;
  if (x === null) return false;
  return (lo === "" || x >= Number(lo)) && (hi === "" || x <= Number(hi));
};

const STATUS_CLASS: Record<string, string> = { failed: "text-rose-700", done: "text-emerald-700", running: "text-indigo-700" };

/** A method key by its display name; a pairwise job's "a~b" reads "A vs B". */
const displayName = (key: string, names: Record<string, string>) =>
  key
    .split("~")
    .map((k) => names[k] ?? k)
    .join(" vs ");

export function ItemsTable({
  experimentId,
  rows,
  total,
  names = {},
}: {
  experimentId: number;
  rows: ItemRow[];
  total: number;
  /** Display names by method key. */
  names?: Record<string, string>;
}) {
  const nameOf = (key: string) => displayName(key, names);
  const [sorting, setSorting] = useState<SortingState>([]);
  const [filters, setFilters] = useState<ColumnFiltersState>([]);
  const columns = useMemo(
    () => [
      col.accessor("starred", {
        header: "★",
        enableSorting: true,
        cell: (c) => <StarButton experimentId={experimentId} jobId={c.row.original.id} starred={c.getValue()} />,
      }),
      col.accessor("itemKey", {
        header: "Item",
        filterFn: "includesString",
        cell: (c) => (
          <Link className="text-indigo-700 hover:underline" href={`/experiments/${experimentId}/jobs/${c.row.original.id}`}>
            {c.getValue()}
          </Link>
        ),
      }),
      col.accessor("task", { header: "Task", filterFn: exact }),
      col.accessor("method", {
        header: "Method",
        filterFn: exact,
        cell: (c) => <span title={c.getValue()}>{displayName(c.getValue(), names)}</span>,
      }),
      // Runs are counted from 1 on the page; exports keep the stored replicate index (from 0).
      col.accessor("replicate", { header: "Run", cell: (c) => <span title={`replicate index ${c.getValue()}`}>{c.getValue() + 1}</span> }),
      col.accessor("status", {
        header: "Status",
        filterFn: exact,
        cell: (c) => (
          <>
            <span className={STATUS_CLASS[c.getValue()] ?? ""}>{c.getValue()}</span>
            {c.row.original.error ? (
              <span className="block max-w-xl whitespace-pre-wrap text-xs text-rose-700" data-testid="item-error">
                {c.row.original.error}
              </span>
            ) : null}
          </>
        ),
      }),
      col.accessor("score", {
        header: "Score",
        filterFn: range,
        sortUndefined: "last",
        sortingFn: (a, b, id) => (a.getValue<number | null>(id) ?? -Infinity) - (b.getValue<number | null>(id) ?? -Infinity),
        cell: (c) =>
          c.getValue() === null ? (
            <span className="text-slate-400">—</span>
          ) : (
            <span title={c.row.original.scoreLabel ?? ""}>
              {Number(c.getValue()!.toFixed(3))} <span className="text-xs text-slate-400">{c.row.original.scoreLabel}</span>
            </span>
          ),
      }),
    ],
    [experimentId, names],
  );
  const table = useReactTable({
    data: rows,
    columns,
    state: { sorting, columnFilters: filters },
    onSortingChange: setSorting,
    onColumnFiltersChange: setFilters,
    getCoreRowModel: getCoreRowModel(),
    getSortedRowModel: getSortedRowModel(),
    getFilteredRowModel: getFilteredRowModel(),
    getPaginationRowModel: getPaginationRowModel(),
    initialState: { pagination: { pageSize: 50 } },
  });
  const distinct = (k: "task" | "method" | "status") => [...new Set(rows.map((r) => r[k]))].sort();
  const filterOf = (id: string) => filters.find((f) => f.id === id)?.value;
  const setFilter = (id: string, value: unknown) => table.getColumn(id)?.setFilterValue(value);
  const scoreRange = (filterOf("score") as [string, string] | undefined) ?? ["", ""];
  const selectFilter = (id: "task" | "method" | "status", label: string) => (
    <label className="flex items-center gap-1">
      <span className="text-xs text-slate-500">{label}</span>
      <select
        aria-label={`Filter by ${label.toLowerCase()}`}
        className="rounded border border-slate-300 px-1 py-0.5 text-sm"
        value={(filterOf(id) as string) ?? ""}
        onChange={(e) => setFilter(id, e.target.value || undefined)}
      >
        <option value="">all</option>
        {distinct(id).map((v) => (
          <option key={v} value={v}>
            {id === "method" ? nameOf(v) : v}
          </option>
        ))}
      </select>
    </label>
  );
  const shown = table.getFilteredRowModel().rows.length;
  const { pageIndex, pageSize } = table.getState().pagination;
  return (
    <section>
      <h2 className="mb-1 font-semibold">Items</h2>
      <div className="mb-2 flex flex-wrap items-center gap-3 rounded border border-slate-200 bg-white px-3 py-2" data-testid="item-filters">
        <input
          aria-label="Filter by item"
          placeholder="item contains…"
          className="rounded border border-slate-300 px-2 py-0.5 text-sm"
          value={(filterOf("itemKey") as string) ?? ""}
          onChange={(e) => setFilter("itemKey", e.target.value || undefined)}
        />
        {selectFilter("task", "Task")}
        {selectFilter("method", "Method")}
        {selectFilter("status", "Status")}
        <label className="flex items-center gap-1">
          <span className="text-xs text-slate-500">Score</span>
          <input
            aria-label="Minimum score"
            type="number"
            step="any"
            className="w-20 rounded border border-slate-300 px-1 py-0.5 text-sm"
            value={scoreRange[0]}
            onChange={(e) => setFilter("score", [e.target.value, scoreRange[1]])}
          />
          –
          <input
            aria-label="Maximum score"
            type="number"
            step="any"
            className="w-20 rounded border border-slate-300 px-1 py-0.5 text-sm"
            value={scoreRange[1]}
            onChange={(e) => setFilter("score", [scoreRange[0], e.target.value])}
          />
        </label>
        <span className="ml-auto text-xs text-slate-500" data-testid="item-count">
          {shown} of {total} items{rows.length < total ? ` (the first ${rows.length} loaded)` : ""}
        </span>
      </div>
      <table className="w-full rounded border border-slate-200 bg-white text-sm" data-testid="job-list">
        <thead className="bg-slate-50 text-left text-xs text-slate-500">
          {table.getHeaderGroups().map((g) => (
            <tr key={g.id}>
              {g.headers.map((h) => (
                <th
                  key={h.id}
                  className="p-2"
                  aria-sort={h.column.getIsSorted() === "asc" ? "ascending" : h.column.getIsSorted() === "desc" ? "descending" : undefined}
                >
                  <button type="button" className="uppercase hover:text-indigo-700" onClick={h.column.getToggleSortingHandler()}>
                    {flexRender(h.column.columnDef.header, h.getContext())}
                    {h.column.getIsSorted() === "asc" ? " ↑" : h.column.getIsSorted() === "desc" ? " ↓" : ""}
                  </button>
                </th>
              ))}
            </tr>
          ))}
        </thead>
        <tbody>
          {table.getRowModel().rows.map((r) => (
            <tr
              key={r.id}
              className={`border-t border-slate-100 align-top ${r.original.status === "failed" ? "bg-rose-50/40" : ""}`}
              data-status={r.original.status}
            >
              {r.getVisibleCells().map((c) => (
                <td key={c.id} className="p-2">
                  {flexRender(c.column.columnDef.cell, c.getContext())}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
      {table.getPageCount() > 1 ? (
        <div className="mt-2 flex items-center gap-2 text-xs">
          <button
            type="button"
            className="rounded border px-2 py-1 disabled:opacity-40"
            disabled={!table.getCanPreviousPage()}
            onClick={() => table.previousPage()}
          >
            Previous
          </button>
          <span>
            {pageIndex * pageSize + 1}–{Math.min(shown, (pageIndex + 1) * pageSize)} of {shown}
          </span>
          <button
            type="button"
            className="rounded border px-2 py-1 disabled:opacity-40"
            disabled={!table.getCanNextPage()}
            onClick={() => table.nextPage()}
          >
            Next
          </button>
        </div>
      ) : null}
    </section>
  );
}
