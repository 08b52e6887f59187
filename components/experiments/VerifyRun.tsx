"use client";

import { useEffect, useState } from "react";
import type { BundleTaskView } from "./BundleDownload";
import type { VerificationView } from "@/lib/bundles/verifications";

type Answer = { task: BundleTaskView | null; verification: VerificationView | null; error?: string };

/**
 * Verify on an imported run's page: starts `pal bundle verify ID` in the background (POST
 * /api/experiments/ID/verify), shows its progress (polled), can cancel it, and shows the stored badge:
 * "verified on <date>, N of N identical", or "M of N differ" with the list of what differed.
 */
export function VerifyRun({ id, initial }: { id: number; initial: Omit<Answer, "error"> }) {
  const [task, setTask] = useState<BundleTaskView | null>(initial.task);
  const [verification, setVerification] = useState<VerificationView | null>(initial.verification);
  const [error, setError] = useState<string | null>(null);
  const running = task?.state === "running";

  useEffect(() => {
    if (!running) return;
    const timer = setInterval(async () => {
      const res = await fetch(`/api/experiments/${id}/verify`).catch(() => null);
      const body = (await res?.json().catch(() => null)) as Answer | null;
      if (body && "task" in body) {
        setTask(body.task);
        setVerification(body.verification);
      }
    }, 1000);
    return () => clearInterval(timer);
  }, [id, running]);

  async function send(method: "POST" | "DELETE") {
    setError(null);
    const res = await fetch(`/api/experiments/${id}/verify`, { method }).catch(() => null);
    const body = (await res?.json().catch(() => null)) as Answer | null;
    if (!res?.ok || !body || !("task" in body))
      setError(
        body?.error ??
          (res
            ? `the verify could not ${method === "POST" ? "start" : "be cancelled"} (HTTP ${res.status})`
            : "the server did not answer; try again"),
      );
    else {
      setTask(body.task);
      setVerification(body.verification);
    }
  }

  const pct = task && task.total ? Math.round((100 * task.done) / task.total) : 0;
  const button = "rounded border border-slate-300 bg-white px-2 py-1 text-xs text-slate-800 hover:bg-slate-50";
  return (
    <div className="mt-1 flex flex-wrap items-center gap-2" data-testid="verify">
      {verification ? (
        <span
          className={`rounded px-2 py-0.5 font-medium ${verification.ok ? "bg-emerald-100 text-emerald-900" : "bg-red-100 text-red-900"}`}
          data-testid="verify-badge"
          title={`replayed offline from the replies the bundle brought, ${new Date(verification.verifiedAt).toISOString().slice(0, 16).replace("T", " ")} UTC`}
        >
          {verification.ok ? "✓ " : "✗ "}
          {verification.badge}
        </span>
      ) : null}
      {running ? (
        <span className="inline-flex items-center gap-2" role="status" data-testid="verify-progress">
          <span
            className="inline-block h-2 w-32 overflow-hidden rounded bg-slate-200"
            role="progressbar"
            aria-label="Verify progress"
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={pct}
          >
            <span className="block h-full bg-indigo-600" style={{ width: `${pct}%` }} />
          </span>
          <span className="text-slate-700">
            Verifying… {task.step}
            {task.total ? ` ${task.done}/${task.total}` : ""}
          </span>
          <button type="button" className={button} onClick={() => send("DELETE")}>
            Cancel
          </button>
        </span>
      ) : (
        <button
          type="button"
          className={button}
          onClick={() => send("POST")}
          title="re-run every job offline from the replies the bundle brought and compare (pal bundle verify)"
        >
          {verification ? "Verify again" : "Verify"}
        </button>
      )}
      {task?.state === "failed" && !running ? (
        <span className="text-red-800" role="alert">
          the last verify did not finish: {task.error}
        </span>
      ) : null}
      {error ? (
        <span className="text-red-800" role="alert">
          {error}
        </span>
      ) : null}
      {verification && !verification.ok ? (
        <details className="basis-full" data-testid="verify-differences">
          <summary className="cursor-pointer text-slate-800">What differed</summary>
          <ul className="list-disc pl-5 text-slate-800">
            {verification.other.map((o) => (
              <li key={o}>{o}</li>
            ))}
            {verification.jobsDiffer.map((d) => (
              <li key={d.job}>
                job {d.job} ({d.where}): {d.what}
              </li>
            ))}
            {verification.differentCount > verification.jobsDiffer.length ? (
              <li>
                … and {verification.differentCount - verification.jobsDiffer.length} more (`pal bundle verify {id}` lists them all)
              </li>
            ) : null}
          </ul>
        </details>
      ) : null}
    </div>
  );
}
