"use client";
import { startTransition, useState } from "react";
import { useStartBuild, type StartBuildAction } from "./start-build";
import { ActionError } from "@/components/shell/ActionError";

const input = "mt-1 w-full rounded border border-slate-300 px-2 py-1.5 text-sm focus:border-indigo-500 focus:outline-none";

/** "Build memory": a method over one user (or every user) of a data set, built in the background. */
export function BuildMemoryForm({
  datasets,
  methods,
  startBuild,
}: {
  datasets: Array<{ id: number; name: string }>;
  methods: Array<{ id: string; label: string }>;
  startBuild: StartBuildAction;
}) {
  // The new build appears in the list below with its progress bar.
  const [state, action, pending] = useStartBuild(startBuild);
  // React resets a form after its `action` runs, which lost the choice after each Build: the form is
  // submitted by hand (no reset), and the fields are controlled.
  const [datasetId, setDatasetId] = useState(String(datasets[0]?.id ?? ""));
  const [method, setMethod] = useState(methods.find((m) => m.id === "h2memory")?.id ?? methods[0]?.id ?? "");
  const [users, setUsers] = useState("");
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        const data = new FormData(e.currentTarget);
        startTransition(() => action(data));
      }}
      className="mb-6 grid gap-3 rounded-lg border border-slate-200 bg-white p-4 sm:grid-cols-4"
      aria-label="Build memory"
    >
      <label className="block text-xs text-slate-600">
        Data set
        <select name="datasetId" className={input} required value={datasetId} onChange={(e) => setDatasetId(e.target.value)}>
          {datasets.map((d) => (
            <option key={d.id} value={d.id}>
              {d.name}
            </option>
          ))}
        </select>
      </label>
      <label className="block text-xs text-slate-600">
        Method
        <select name="method" className={input} value={method} onChange={(e) => setMethod(e.target.value)}>
          {methods.map((m) => (
            <option key={m.id} value={m.id}>
              {m.label} ({m.id})
            </option>
          ))}
        </select>
      </label>
      <label className="block text-xs text-slate-600">
        Users (blank: every user)
        <input name="users" placeholder="e.g. 0000, 0001" className={input} value={users} onChange={(e) => setUsers(e.target.value)} />
      </label>
      <div className="flex items-end">
        <button
          disabled={pending}
          className="w-full rounded bg-indigo-600 px-3 py-1.5 text-sm font-medium text-white hover:bg-indigo-700 disabled:opacity-60"
        >
          Build memory
        </button>
      </div>
      <ActionError error={state.error} className="rounded bg-rose-50 px-2 py-1 sm:col-span-4" />
      {state.buildId ? (
        <p role="status" className="text-xs text-emerald-800 sm:col-span-4">
          Build #{state.buildId} started; it keeps running if you leave this page.
        </p>
      ) : null}
    </form>
  );
}
