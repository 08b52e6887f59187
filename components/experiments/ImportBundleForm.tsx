"use client";

import Link from "next/link";
import { useState } from "react";

type State = { kind: "idle" } | { kind: "busy" } | { kind: "done"; id: number; again: boolean } | { kind: "error"; message: string };

/** The Experiments page's bundle import: the picked file is the request body (POST /api/experiments/bundle). */
export function ImportBundleForm() {
  const [state, setState] = useState<State>({ kind: "idle" });
  async function upload(file: File) {
    setState({ kind: "busy" });
    try {
      const res = await fetch(`/api/experiments/bundle?name=${encodeURIComponent(file.name)}`, {
        method: "POST",
        headers: { "content-type": "application/vnd.pal-bundle" },
        body: file,
      });
      const body = (await res.json().catch(() => ({}))) as { experiment?: { id: number }; alreadyImported?: boolean; error?: string };
      if (!res.ok || !body.experiment) setState({ kind: "error", message: body.error ?? `the import failed (HTTP ${res.status})` });
      else setState({ kind: "done", id: body.experiment.id, again: !!body.alreadyImported });
    } catch (e) {
      setState({ kind: "error", message: e instanceof Error ? e.message : String(e) });
    }
  }
  return (
    <section className="mb-4 rounded border border-slate-200 bg-white p-3 text-sm" data-testid="import-bundle">
      <label className="flex flex-wrap items-center gap-2">
        <span className="font-medium">Import a bundle</span>
        <span className="text-xs text-slate-500">a run exported with “Download bundle” or pal bundle export</span>
        <input
          type="file"
          accept=".palbundle,.sqlite,.db"
          disabled={state.kind === "busy"}
          onChange={(ev) => {
            const f = ev.target.files?.[0];
            if (f) void upload(f);
            ev.target.value = "";
          }}
          className="text-xs"
        />
      </label>
      {state.kind === "busy" ? <p className="mt-1 text-xs text-slate-500">Importing…</p> : null}
      {state.kind === "done" ? (
        <p className="mt-1 text-xs text-emerald-800" role="status">
          {state.again ? "This run is here already as " : "Imported as "}
          <Link className="text-indigo-700 hover:underline" href={`/experiments/${state.id}`}>
            experiment {state.id}
          </Link>
          .
        </p>
      ) : null}
      {state.kind === "error" ? (
        <p className="mt-1 text-xs text-red-700" role="alert">
          {state.message}
        </p>
      ) : null}
    </section>
  );
}
