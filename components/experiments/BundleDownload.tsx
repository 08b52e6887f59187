"use client";

import { useEffect, useState } from "react";

/** What the page needs of a bundle task (lib/bundles/tasks.ts BundleTask). */
export type BundleTaskView = {
  state: "running" | "ready" | "failed";
  step: string;
  done: number;
  total: number;
  error?: string;
  bytes?: number;
  updatedAt: number;
};

const mb = (n: number) => `${(n / 1e6).toFixed(1)} MB`;
const age = (t: number) => {
  const m = Math.round((Date.now() - t) / 60000);
  return m < 1 ? "just now" : m < 60 ? `${m} min ago` : `${Math.round(m / 60)} h ago`;
};

/**
 * The experiment page's bundle: built in the background (POST /api/experiments/ID/bundle, `?data=1` with the
 * data set's rows the run read: "include data", as `pal bundle export --with-data`), its progress polled,
 * then downloaded as the file the build wrote. A failed build says why and can be started again. The two
 * builds (with and without data) are separate files, each with its own status.
 */
export function BundleDownload({
  id,
  initial,
}: {
  id: number;
  initial: { plain: BundleTaskView | null; withData: BundleTaskView | null };
}) {
  const [withData, setWithData] = useState(false);
  const [tasks, setTasks] = useState(initial);
  const [error, setError] = useState<string | null>(null);
  const task = withData ? tasks.withData : tasks.plain;
  const running = task?.state === "running";
  const q = withData ? "?data=1" : "";

  useEffect(() => {
    if (!running) return;
    const timer = setInterval(async () => {
      const res = await fetch(`/api/experiments/${id}/bundle${q}`).catch(() => null);
      const body = (await res?.json().catch(() => null)) as { task?: BundleTaskView | null } | null;
      if (body && "task" in body) setTasks((t) => ({ ...t, [withData ? "withData" : "plain"]: body.task ?? null }));
    }, 1000);
    return () => clearInterval(timer);
  }, [id, running, q, withData]);

  async function build() {
    setError(null);
    const res = await fetch(`/api/experiments/${id}/bundle${q}`, { method: "POST" }).catch(() => null);
    const body = (await res?.json().catch(() => null)) as { task?: BundleTaskView; error?: string } | null;
    if (!res?.ok || !body?.task) setError(body?.error ?? "the build could not start");
    else setTasks((t) => ({ ...t, [withData ? "withData" : "plain"]: body.task! }));
  }

  const button = "rounded border border-slate-300 px-2 py-1 text-xs hover:bg-slate-50";
  return (
    <span className="inline-flex flex-wrap items-center gap-1 text-xs" data-testid="bundle-download">
      <label
        className="inline-flex items-center gap-1 text-slate-700"
        title="also carry the data set's rows the run read, for a lab that lacks the data set (pal bundle export --with-data)"
      >
        <input
          type="checkbox"
          checked={withData}
          disabled={running}
          onChange={(ev) => {
            setError(null);
            setWithData(ev.target.checked);
          }}
        />
        include data
      </label>
      {task?.state === "ready" ? (
        <>
          <a className={button} href={`/api/experiments/${id}/export?format=bundle${withData ? "&data=1" : ""}`}>
            Download bundle{withData ? " with data" : ""} ({mb(task.bytes ?? 0)})
          </a>
          <button type="button" className="text-slate-600 hover:underline" onClick={build} title={`built ${age(task.updatedAt)}`}>
            rebuild
          </button>
        </>
      ) : running ? (
        <span className="rounded border border-slate-200 px-2 py-1 text-slate-700" role="status">
          Building bundle{withData ? " with data" : ""}… {task.total ? `${task.done}/${task.total} ${task.step}` : task.step}
        </span>
      ) : (
        <button type="button" className={button} onClick={build}>
          Build bundle{withData ? " with data" : ""}
        </button>
      )}
      {task?.state === "failed" || error ? (
        <span className="max-w-xs truncate text-red-700" role="alert" title={error ?? task?.error}>
          {error ?? `the last build failed: ${task?.error}`}
        </span>
      ) : null}
    </span>
  );
}
