"use client";
import { BatchStates } from "@/components/llm/BatchStates";
import { useEffect, useRef, useState } from "react";
import { useRouter } from "next/navigation";
import type { Progress } from "@/lib/experiments/progress";
import { activityText } from "@/lib/experiments/activity-text";
import { runStatusLabel, TONE_CLASSES } from "@/lib/run-status";
import { postJson } from "./api";

const ACTIVE = new Set(["preparing", "queued", "running"]);

/** Batch states after which nothing more happens (lib/llm/batch.ts FINISHED_BATCH). */
const FINISHED = new Set(["ingested", "failed", "expired", "cancelled"]);

/** How often the server-rendered results are refreshed while a run is watched (the progress itself every 2 s). */
const RESULTS_EVERY_MS = 30_000;

/**
 * Live progress with pause, cancel, resume and retry-failed. While the experiment runs it polls the
 * small progress answer every 2 s and updates itself; the page around it (results, items) is rendered
 * again only every 30 s, when the run stops, or on "Update results", so the page stays usable while it runs.
 */
export function ExperimentControls({ id, initial }: { id: number; initial: Progress }) {
  const router = useRouter();
  const [p, setP] = useState(initial);
  const [error, setError] = useState<string | null>(null);
  // A new render of the page brings new progress and the results it shows (the finished count they have).
  const [rendered, setRendered] = useState(initial);
  if (rendered !== initial) {
    setRendered(initial);
    setP(initial);
  }
  const shownFinished = initial.done + initial.failed;
  const renderedAt = useRef(0);
  useEffect(() => {
    renderedAt.current = Date.now();
  }, [initial]);
  const refreshing = useRef(false);
  useEffect(() => {
    if (!ACTIVE.has(p.status)) return;
    const t = setInterval(async () => {
      const r = await fetch(`/api/experiments/${id}?only=progress`)
        .then((x) => (x.ok ? x.json() : null))
        .catch(() => null);
      if (!r) return;
      setP(r.progress);
      const n = r.progress.done + r.progress.failed;
      const stopped = !ACTIVE.has(r.progress.status);
      if (refreshing.current) return;
      if ((n !== shownFinished && Date.now() - renderedAt.current >= RESULTS_EVERY_MS) || stopped) {
        refreshing.current = true;
        router.refresh();
        setTimeout(() => (refreshing.current = false), 2000);
      }
    }, 2000);
    return () => clearInterval(t);
  }, [id, p.status, router, shownFinished]);
  const newSince = p.done + p.failed - shownFinished;

  const act = async (action: string) => {
    setError(null);
    try {
      const r = await postJson<{ progress: Progress }>(`/api/experiments/${id}`, { action }, "POST", `${action} the experiment`);
      setP(r.progress);
      router.refresh();
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    }
  };
  const btn = "rounded border px-2 py-1 text-xs disabled:opacity-40";
  const label = runStatusLabel(p.status, p.failed, p.total);
  const tone = TONE_CLASSES[label.tone];
  return (
    <section className="mb-4 rounded border border-slate-200 bg-white p-3 text-sm" data-testid="progress">
      <div className="flex items-center justify-between">
        <span data-testid="status" className={`rounded px-2 py-0.5 font-medium ${tone.badge}`}>
          {label.text}
        </span>
        <div className="flex gap-2">
          <button className={btn} disabled={!ACTIVE.has(p.status)} onClick={() => act("pause")}>
            Pause
          </button>
          <button className={btn} disabled={!["preparing", "queued", "running", "paused"].includes(p.status)} onClick={() => act("cancel")}>
            Cancel
          </button>
          <button className={btn} disabled={ACTIVE.has(p.status) || p.status === "done"} onClick={() => act("resume")}>
            Resume
          </button>
          <button className={btn} disabled={ACTIVE.has(p.status) || p.failed === 0} onClick={() => act("retry-failed")}>
            Retry failed
          </button>
        </div>
      </div>
      <div
        className="mt-2 h-2 w-full rounded bg-slate-100"
        role="progressbar"
        aria-label="Experiment progress (% of jobs finished)"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={Math.round(p.fraction * 100)}
      >
        <div className={`h-2 rounded ${tone.bar}`} style={{ width: `${Math.round(p.fraction * 100)}%` }} />
      </div>
      {p.status === "preparing" && p.planned !== null ? (
        <p className="mt-1 text-xs text-slate-600" data-testid="preparing">
          Creating jobs: {p.total.toLocaleString("en")} of {p.planned.toLocaleString("en")} (in the background; the run starts when all
          exist)
        </p>
      ) : null}
      <p className="mt-1" data-testid="counts">
        {p.done} done · {p.failed} failed · {p.running} running · {p.queued} queued · {p.cancelled} cancelled of {p.total}
        {p.etaMs !== null && ACTIVE.has(p.status) ? ` · ETA ${Math.ceil(p.etaMs / 1000)} s` : ""}
      </p>
      {p.inFlight && ACTIVE.has(p.status) ? (
        // A slow model: nothing finishes for minutes, but the requests on their way show the run is working.
        <p className="mt-1 text-xs text-slate-600" data-testid="in-flight">
          Model: {activityText(p.inFlight)}
        </p>
      ) : null}
      {newSince > 0 ? (
        <p className="mt-1 text-xs text-slate-600" data-testid="results-age">
          {newSince.toLocaleString("en")} more item{newSince === 1 ? "" : "s"} finished since the results below were shown (they are updated
          every {RESULTS_EVERY_MS / 1000} s while it runs).{" "}
          <button type="button" className="text-indigo-700 hover:underline" onClick={() => router.refresh()}>
            Update results
          </button>
        </p>
      ) : null}
      {p.batches.length ? (
        <div className="mt-2" data-testid="judge-batches">
          <p className="text-xs text-slate-600">
            Judge calls sent as batches{p.waitingForBatch ? `: ${p.waitingForBatch} items wait for their batch` : ""}
          </p>
          <BatchStates batches={p.batches} testId="experiment-batch" />
          {p.batches.some((b) => !FINISHED.has(b.status)) ? (
            <button className={`${btn} mt-1`} onClick={() => act("cancel-batch")} title="The items are then judged online">
              Cancel batch
            </button>
          ) : null}
        </div>
      ) : null}
      {p.error && (p.status === "paused" || p.status === "failed") ? (
        <p role="status" data-testid="pause-reason" className="mt-2 rounded bg-amber-50 px-2 py-1 text-xs text-amber-900">
          {p.error}
          {p.status === "paused" ? " Fix the cause (Admin → Models, or the config), then Resume." : ""}
          {p.hint ? (
            <span className="mt-0.5 block" data-testid="pause-hint">
              {p.hint} (the same check as Admin → Models → Test connection)
            </span>
          ) : null}
        </p>
      ) : null}
      {error ? (
        <p role="alert" className="mt-1 rounded bg-rose-50 px-2 py-1 text-xs text-rose-700">
          {error}
        </p>
      ) : null}
    </section>
  );
}
