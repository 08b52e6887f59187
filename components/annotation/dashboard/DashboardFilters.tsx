/** Filters of the agreement dashboard: a plain GET form (the URL holds the choice). */
import type { DashboardFilters as Filters } from "@/lib/annotation/agreement-dashboard";

export function DashboardFilters({ filters, kinds }: { filters: Filters; kinds: Array<{ value: string; label: string }> }) {
  return (
    <form
      method="get"
      className="flex flex-wrap items-end gap-3 rounded-lg border border-slate-200 bg-white p-3 text-sm"
      data-testid="agreement-filters"
    >
      <label className="flex flex-col text-xs text-slate-600">
        Campaign kind
        <select name="kind" defaultValue={filters.kind ?? ""} className="mt-1 rounded border border-slate-300 px-2 py-1 text-sm">
          <option value="">All kinds</option>
          {kinds.map((k) => (
            <option key={k.value} value={k.value}>
              {k.label}
            </option>
          ))}
        </select>
      </label>
      <label className="flex flex-col text-xs text-slate-600">
        Created from
        <input
          type="date"
          name="from"
          defaultValue={filters.from ?? ""}
          className="mt-1 rounded border border-slate-300 px-2 py-1 text-sm"
        />
      </label>
      <label className="flex flex-col text-xs text-slate-600">
        to
        <input type="date" name="to" defaultValue={filters.to ?? ""} className="mt-1 rounded border border-slate-300 px-2 py-1 text-sm" />
      </label>
      <button type="submit" className="rounded bg-indigo-600 px-3 py-1.5 text-white hover:bg-indigo-700">
        Filter
      </button>
      {filters.kind || filters.from || filters.to ? (
        <a href="/agreement" className="text-indigo-700 hover:underline">
          Clear
        </a>
      ) : null}
    </form>
  );
}
