"use client";
/**
 * The experiment's items (one row per job), a page at a time from the server (GET
 * /api/experiments/:id/items): filter by task, method, status, score range and item text, sort by any
 * column, 50 rows a page. An item reads as its title (the topic's query or the question, and whose it
 * is), its key as small text; the text box searches titles, replies and keys. The first page comes with the page's HTML; every change asks for one page.
 * A failed item shows its error in the row.
 */
import { useEffect, useRef, useState } from "react";
import Link from "next/link";
import type { ItemPage, ItemSort } from "@/lib/experiments/items";
import { StarButton } from "./StarButton";

const STATUS_CLASS: Record<string, string> = { failed: "text-rose-700", done: "text-emerald-700", running: "text-indigo-700" };

type Filters = { task: string; method: string; status: string; q: string; min: string; max: string };
type Sort = { sort: ItemSort; dir: "asc" | "desc" };
const NO_FILTERS: Filters = { task: "", method: "", status: "", q: "", min: "", max: "" };

const COLUMNS: Array<{ id: ItemSort; header: string }> = [
  { id: "starred", header: "★" },
  { id: "item", header: "Item" },
  { id: "task", header: "Task" },
  { id: "method", header: "Method" },
  { id: "run", header: "Run" },
  { id: "status", header: "Status" },
  { id: "score", header: "Score" },
];
/** Numbers sort the highest first on the first click, text A to Z. */
const DESC_FIRST = new Set<ItemSort>(["score", "starred"]);

function queryString(f: Filters, s: Sort, page: number): string {
  const p = new URLSearchParams();
  for (const [k, v] of Object.entries(f)) if (v.trim()) p.set(k, v.trim());
  if (s.sort !== "plan") p.set("sort", s.sort);
  if (s.dir !== "asc") p.set("dir", s.dir);
  if (page > 1) p.set("page", String(page));
  return p.toString();
}

/** A method key by its display name; a pairwise job's "a~b" reads "A vs B". */
const displayName = (key: string, names: Record<string, string>) =>
  key
    .split("~")
    .map((k) => names[k] ?? k)
    .join(" vs ");

export function ItemsTable({
  experimentId,
  initial,
  names = {},
}: {
  experimentId: number;
  initial: ItemPage;
  /** Display names by method key; filter values stay the keys. */
  names?: Record<string, string>;
}) {
  const [data, setData] = useState(initial);
  const [filters, setFilters] = useState(NO_FILTERS);
  const [sort, setSort] = useState<Sort>({ sort: "plan", dir: "asc" });
  const [page, setPage] = useState(1);
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);
  // The rows shown no longer match the filters (a new page is on its way): hidden, never clicked by mistake.
  const [stale, setStale] = useState(false);
  const first = useRef(true);
  // The page rendered again (a watched run's results were updated): its first page replaces an unfiltered view.
  const [seen, setSeen] = useState(initial);
  if (seen !== initial) {
    setSeen(initial);
    if (page === 1 && sort.sort === "plan" && Object.values(filters).every((v) => !v.trim())) setData(initial);
  }

  useEffect(() => {
    // The first page came with the HTML.
    if (first.current) {
      first.current = false;
      return;
    }
    const ctl = new AbortController();
    // Typing in the text or score boxes asks once it pauses; selects and pages at once.
    const t = setTimeout(async () => {
      setLoading(true);
      try {
        const r = await fetch(`/api/experiments/${experimentId}/items?${queryString(filters, sort, page)}`, { signal: ctl.signal });
        const body = await r.json();
        if (!r.ok) throw new Error(body.error ?? `HTTP ${r.status}`);
        setData(body as ItemPage);
        setStale(false);
        setError(null);
      } catch (e) {
        if (!ctl.signal.aborted) setError(e instanceof Error ? e.message : String(e));
      } finally {
        if (!ctl.signal.aborted) setLoading(false);
      }
    }, 200);
    return () => {
      clearTimeout(t);
      ctl.abort();
    };
  }, [experimentId, filters, sort, page]);

  const setFilter = (k: keyof Filters, v: string) => {
    setFilters((f) => ({ ...f, [k]: v }));
    setPage(1);
    setStale(true);
  };
  const goTo = (n: number) => {
    setPage(n);
    setStale(true);
  };
  const toggleSort = (id: ItemSort) => {
    setSort((s) =>
      s.sort !== id
        ? { sort: id, dir: DESC_FIRST.has(id) ? "desc" : "asc" }
        : s.dir === (DESC_FIRST.has(id) ? "desc" : "asc")
          ? { sort: id, dir: DESC_FIRST.has(id) ? "asc" : "desc" }
          : { sort: "plan", dir: "asc" },
    );
    setPage(1);
    setStale(true);
  };
  const selectFilter = (id: "task" | "method" | "status", label: string) => (
    <label className="flex items-center gap-1">
      <span className="text-xs text-slate-500">{label}</span>
      <select
        aria-label={`Filter by ${label.toLowerCase()}`}
        className="rounded border border-slate-300 px-1 py-0.5 text-sm"
        value={filters[id]}
        onChange={(e) => setFilter(id, e.target.value)}
      >
        <option value="">all</option>
        {data.choices[id].map((v) => (
          <option key={v} value={v}>
            {id === "method" ? displayName(v, names) : v}
          </option>
        ))}
      </select>
    </label>
  );
  const pages = Math.max(1, Math.ceil(data.filtered / data.size));
  const from = data.filtered ? (data.page - 1) * data.size + 1 : 0;
  return (
    <section>
      <h2 className="mb-1 font-semibold">Items</h2>
      <div className="mb-2 flex flex-wrap items-center gap-3 rounded border border-slate-200 bg-white px-3 py-2" data-testid="item-filters">
        <input
          aria-label="Filter by item"
          placeholder="words of the topic, question or replies…"
          className="w-72 rounded border border-slate-300 px-2 py-0.5 text-sm"
          value={filters.q}
          onChange={(e) => setFilter("q", e.target.value)}
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
            value={filters.min}
            onChange={(e) => setFilter("min", e.target.value)}
          />
          –
          <input
            aria-label="Maximum score"
            type="number"
            step="any"
            className="w-20 rounded border border-slate-300 px-1 py-0.5 text-sm"
            value={filters.max}
            onChange={(e) => setFilter("max", e.target.value)}
          />
        </label>
        <span className="ml-auto text-xs text-slate-500" data-testid="item-count" aria-busy={loading}>
          {data.filtered.toLocaleString("en")} of {data.total.toLocaleString("en")} items
          {loading || stale ? " · loading…" : ""}
        </span>
      </div>
      {error ? (
        <p role="alert" className="mb-2 rounded bg-rose-50 px-2 py-1 text-xs text-rose-700">
          {error}
        </p>
      ) : null}
      <table className="w-full rounded border border-slate-200 bg-white text-sm" data-testid="job-list">
        <thead className="bg-slate-50 text-left text-xs text-slate-500">
          <tr>
            {COLUMNS.map((c) => (
              <th key={c.id} className="p-2" aria-sort={sort.sort === c.id ? (sort.dir === "asc" ? "ascending" : "descending") : undefined}>
                <button type="button" className="uppercase hover:text-indigo-700" onClick={() => toggleSort(c.id)}>
                  {c.header}
                  {sort.sort === c.id ? (sort.dir === "asc" ? " ↑" : " ↓") : ""}
                </button>
              </th>
            ))}
          </tr>
        </thead>
        <tbody aria-busy={stale}>
          {(stale ? [] : data.rows).map((r) => (
            <tr
              key={r.id}
              className={`border-t border-slate-100 align-top ${r.status === "failed" ? "bg-rose-50/40" : ""}`}
              data-status={r.status}
            >
              <td className="p-2">
                <StarButton key={`${r.id}:${r.starred}`} experimentId={experimentId} jobId={r.id} starred={r.starred} />
              </td>
              <td className="max-w-xl p-2">
                <Link
                  className="text-indigo-700 hover:underline"
                  href={`/experiments/${experimentId}/jobs/${r.id}`}
                  title={r.itemKey}
                  data-testid="item-title"
                >
                  {r.title || r.itemKey}
                </Link>
                {r.title ? <span className="block font-mono text-xs text-slate-500">{r.itemKey}</span> : null}
              </td>
              <td className="p-2">{r.task}</td>
              <td className="p-2" data-method={r.method}>
                {displayName(r.method, names)}
              </td>
              {/* Runs are counted from 1 on the page; exports keep the stored replicate index (from 0). */}
              <td className="p-2">
                <span title={`replicate index ${r.replicate}`}>{r.replicate + 1}</span>
              </td>
              <td className="p-2">
                <span className={STATUS_CLASS[r.status] ?? ""}>{r.status}</span>
                {r.error ? (
                  <span className="block max-w-xl whitespace-pre-wrap text-xs text-rose-700" data-testid="item-error">
                    {r.error}
                  </span>
                ) : null}
              </td>
              <td className="p-2">
                {r.score === null ? (
                  <span className="text-slate-500">—</span>
                ) : (
                  <span title={r.scoreLabel ?? ""}>
                    {Number(r.score.toFixed(3))} <span className="text-xs text-slate-500">{r.scoreLabel}</span>
                  </span>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {pages > 1 ? (
        <div className="mt-2 flex items-center gap-2 text-xs">
          <button
            type="button"
            className="rounded border px-2 py-1 disabled:opacity-40"
            disabled={page <= 1}
            onClick={() => goTo(page - 1)}
          >
            Previous
          </button>
          <span>
            {from.toLocaleString("en")}–{Math.min(data.filtered, data.page * data.size).toLocaleString("en")} of{" "}
            {data.filtered.toLocaleString("en")}
          </span>
          <button
            type="button"
            className="rounded border px-2 py-1 disabled:opacity-40"
            disabled={page >= pages}
            onClick={() => goTo(page + 1)}
          >
            Next
          </button>
        </div>
      ) : null}
    </section>
  );
}
