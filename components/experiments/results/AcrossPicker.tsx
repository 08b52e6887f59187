/**
 * The experiments to set in one table, grouped by the tasks they ran (a table needs the same task in each):
 * a plain GET form, so the choice is in the address and a table can be linked to.
 */
export function AcrossPicker({
  groups,
  chosen,
  runOnly,
}: {
  groups: Array<{ tasks: string; experiments: Array<{ id: number; name: string; dataset: string; status: string }> }>;
  chosen: number[];
  runOnly: boolean;
}) {
  if (!groups.length) return <p className="mb-4 text-sm text-slate-600">No experiments yet.</p>;
  return (
    <form
      method="get"
      action="/experiments/tables"
      className="mb-5 rounded border border-slate-200 bg-white p-3"
      data-testid="across-picker"
    >
      <p className="mb-2 text-sm text-slate-700">Pick 2 to 8 experiments of the same tasks:</p>
      <div className="grid gap-3 md:grid-cols-2">
        {groups.map((g) => (
          <fieldset key={g.tasks} className="rounded border border-slate-200 p-2">
            <legend className="px-1 text-xs font-medium text-slate-600">Tasks: {g.tasks}</legend>
            <ul className="max-h-56 space-y-0.5 overflow-y-auto text-sm" tabIndex={0} aria-label={`Experiments with tasks ${g.tasks}`}>
              {g.experiments.map((e) => (
                <li key={e.id}>
                  <label className="flex items-baseline gap-2">
                    <input
                      type="checkbox"
                      name="ids"
                      value={e.id}
                      defaultChecked={chosen.includes(e.id)}
                      data-testid={`across-pick-${e.id}`}
                    />
                    <span>
                      <span className="text-slate-500">#{e.id}</span> {e.name}{" "}
                      <span className="text-xs text-slate-600">
                        · {e.dataset} · {e.status}
                      </span>
                    </span>
                  </label>
                </li>
              ))}
            </ul>
          </fieldset>
        ))}
      </div>
      <div className="mt-3 flex items-center gap-4 text-sm">
        <label className="flex items-center gap-2">
          <input type="checkbox" name="rows" value="run" defaultChecked={runOnly} data-testid="across-run-only" />
          These runs only (no published rows)
        </label>
        <button type="submit" className="rounded bg-indigo-600 px-3 py-1 text-white hover:bg-indigo-700" data-testid="across-show">
          Show the table
        </button>
      </div>
    </form>
  );
}
