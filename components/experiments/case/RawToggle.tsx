"use client";
import { useState } from "react";

/** The stored rows behind the rendered view, fetched only when asked: raw JSON is one click away, never the default. */
export function RawToggle({ experimentId, jobIds }: { experimentId: number; jobIds: number[] }) {
  const [raw, setRaw] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const toggle = async () => {
    if (raw !== null) return setRaw(null);
    setBusy(true);
    setError(null);
    try {
      const all = await Promise.all(
        jobIds.map(async (id) => {
          const r = await fetch(`/api/experiments/${experimentId}/jobs/${id}`);
          if (!r.ok) throw new Error(`job ${id}: HTTP ${r.status}`);
          return r.json();
        }),
      );
      setRaw(JSON.stringify(all.length === 1 ? all[0] : all, null, 2));
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <section className="mt-4">
      <button
        type="button"
        className="rounded border border-slate-300 px-2 py-1 text-xs hover:bg-slate-50"
        aria-pressed={raw !== null}
        disabled={busy}
        onClick={toggle}
      >
        {raw !== null ? "Hide raw JSON" : "Show raw JSON"}
      </button>
      {error ? <p className="mt-1 text-xs text-rose-700">{error}</p> : null}
      {raw !== null ? (
        <pre
          className="mt-2 max-h-[70vh] overflow-auto rounded border border-slate-200 bg-slate-900 p-3 text-xs text-slate-100"
          data-testid="raw-json"
        >
          {raw}
        </pre>
      ) : null}
    </section>
  );
}
