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

/** Live progress (polled while the experiment runs) with pause, cancel, resume and retry-failed. */
export function ExperimentControls({ id, initial }: { id: number; initial: Progress }) {
  const router = useRouter();
  const [p, setP] = useState(initial);
  const [error, setError] = useState<string | null>(null);
  const finished = useRef(initial.done + initial.failed);
  useEffect(() => {
    if (!ACTIVE.has(p.status)) return;
    const t = setInterval(async () => {
      const r = await fetch(`/api/experiments/${id}?only=progress`)
        .then((x) => (x.ok ? x.json() : null))
        .catch(() => null);
      if (!r) return;
      setP(r.progress);
      const n = r.progress.done + r.progress.failed;
      // Refresh the server-rendered tables when something finished (cheap: at most every 2 s).
      if (n !== finished.current || !ACTIVE.has(r.progress.status)) {
        finished.current = n;
        router.refresh();
      }
    }, 2000);
    return () => clearInterval(t);
  }, [id, p.status, router]);

  const act = async (action: string) => {
    setError(null);
    try {
      const r = await postJson<{ progress: Progress }>(`/api/experiments/${id}`, { action });
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
