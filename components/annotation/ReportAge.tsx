"use client";
/**
 * The age of a cached agreement report ("computed 2 min ago, refreshing…"). Reports are computed in the
 * background (lib/annotation/agreement-cache.ts); while a newer one is on its way this re-renders the page
 * every few seconds (router.refresh), and offers a reload.
 */
import { useEffect } from "react";
import { useRouter } from "next/navigation";
import { formatAge } from "./format-age";

export function ReportAge({
  ageMs,
  current,
  error,
  testId = "agreement-age",
  pollMs,
  what = "the agreement report",
}: {
  /** What is computed, for the line shown before the first one exists. */
  what?: string;
  /** Null: no report yet. */
  ageMs: number | null;
  current: boolean;
  error?: string | null;
  testId?: string;
  /** Default: every second while there is no report yet, every 3 s while a newer one is computed. */
  pollMs?: number;
}) {
  const router = useRouter();
  const waiting = !current && !error;
  useEffect(() => {
    if (!waiting) return;
    const t = setTimeout(() => router.refresh(), pollMs ?? (ageMs === null ? 1000 : 3000));
    return () => clearTimeout(t);
  });
  const text =
    ageMs === null
      ? error
        ? `${what} could not be computed`
        : `${what} is being computed…`
      : `computed ${formatAge(ageMs)}${current ? "" : error ? "" : ", refreshing…"}`;
  return (
    <span
      className="text-xs text-slate-500"
      data-testid={testId}
      data-state={current ? "current" : ageMs === null ? "computing" : "refreshing"}
    >
      {text}
      {error ? <span className="text-rose-700"> ({error})</span> : null}
      {waiting ? (
        <button type="button" className="ml-2 text-indigo-700 hover:underline" onClick={() => router.refresh()}>
          Reload
        </button>
      ) : null}
    </span>
  );
}
