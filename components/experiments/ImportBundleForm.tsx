"use client";

import Link from "next/link";
import { useEffect, useState } from "react";

type Task = {
  state: "running" | "ready" | "failed";
  step: string;
  done: number;
  total: number;
  error?: string;
  experimentId?: number;
  alreadyImported?: boolean;
};
type State =
  | { kind: "idle" }
  | { kind: "uploading" }
  | { kind: "importing"; token: string; task: Task | null }
  | { kind: "done"; id: number; again: boolean }
  | { kind: "error"; message: string };

/**
 * The Experiments page's bundle import: the picked file is uploaded as the request body (POST
 * /api/experiments/bundle), imported in the background, and its progress polled until the run's link.
 */
export function ImportBundleForm() {
  const [state, setState] = useState<State>({ kind: "idle" });
  const token = state.kind === "importing" ? state.token : null;

  useEffect(() => {
    if (!token) return;
    const timer = setInterval(async () => {
      const res = await fetch(`/api/experiments/bundle?task=${token}`).catch(() => null);
      const body = (await res?.json().catch(() => null)) as { task?: Task; error?: string } | null;
      const t = body?.task;
      if (!res?.ok || !t) setState({ kind: "error", message: body?.error ?? "the import's status cannot be read" });
      else if (t.state === "ready" && t.experimentId) setState({ kind: "done", id: t.experimentId, again: !!t.alreadyImported });
      else if (t.state === "failed") setState({ kind: "error", message: t.error ?? "the import failed" });
      else setState({ kind: "importing", token, task: t });
    }, 700);
    return () => clearInterval(timer);
  }, [token]);

  async function upload(file: File) {
    setState({ kind: "uploading" });
    try {
      const res = await fetch(`/api/experiments/bundle?name=${encodeURIComponent(file.name)}`, {
        method: "POST",
        headers: { "content-type": "application/vnd.pal-bundle" },
        body: file,
      });
      const body = (await res.json().catch(() => ({}))) as { task?: string; error?: string };
      if (!res.ok || !body.task) setState({ kind: "error", message: body.error ?? `the upload failed (HTTP ${res.status})` });
      else setState({ kind: "importing", token: body.task, task: null });
    } catch (e) {
      setState({ kind: "error", message: e instanceof Error ? e.message : String(e) });
    }
  }
  async function cancel(token: string) {
    const res = await fetch(`/api/experiments/bundle?task=${token}`, { method: "DELETE" }).catch(() => null);
    const body = (await res?.json().catch(() => null)) as { task?: Task; error?: string } | null;
    setState({ kind: "error", message: body?.task?.error ?? body?.error ?? "the import could not be cancelled" });
  }
  const busy = state.kind === "uploading" || state.kind === "importing";
  return (
    <section className="mb-4 rounded border border-slate-200 bg-white p-3 text-sm" data-testid="import-bundle">
      <label className="flex flex-wrap items-center gap-2">
        <span className="font-medium">Import a bundle</span>
        <span className="text-xs text-slate-500">a run exported with “Download bundle” or pal bundle export</span>
        <input
          type="file"
          accept=".palbundle,.gz,.sqlite,.db"
          disabled={busy}
          onChange={(ev) => {
            const f = ev.target.files?.[0];
            if (f) void upload(f);
            ev.target.value = "";
          }}
          className="text-xs"
        />
      </label>
      {state.kind === "uploading" ? <p className="mt-1 text-xs text-slate-500">Uploading…</p> : null}
      {state.kind === "importing" ? (
        <p className="mt-1 text-xs text-slate-500" data-testid="import-progress">
          Importing…{" "}
          {state.task && state.task.total
            ? `${Math.min(state.task.done, state.task.total)} of about ${state.task.total} steps (${state.task.step})`
            : ""}{" "}
          <button
            type="button"
            className="ml-1 rounded border border-slate-300 px-2 py-0.5 text-slate-700 hover:bg-slate-50"
            onClick={() => void cancel(state.token)}
          >
            Cancel
          </button>
        </p>
      ) : null}
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
