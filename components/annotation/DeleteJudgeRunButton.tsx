"use client";
import { useRouter } from "next/navigation";
import { useState } from "react";

/** Deletes a judge run after a confirmation; the page re-renders without its tables. */
export function DeleteJudgeRunButton({
  campaignId,
  runId,
  name,
  onDeleted,
}: {
  campaignId: number;
  runId: number;
  name: string;
  onDeleted?: () => void;
}) {
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  async function remove() {
    if (!window.confirm(`Delete the judge run “${name}” and its verdicts? Its model calls stay in the ledger.`)) return;
    const r = await fetch(`/api/campaigns/${campaignId}/llm-judge?run=${runId}`, { method: "DELETE" });
    if (!r.ok) return setError((await r.json().catch(() => ({}))).error ?? `HTTP ${r.status}`);
    onDeleted?.();
    router.refresh();
  }
  return (
    <>
      <button
        type="button"
        onClick={() => void remove()}
        className="rounded border border-rose-300 px-2 py-0.5 text-xs text-rose-700 hover:bg-rose-50"
        aria-label={`Delete judge run ${name}`}
      >
        Delete run
      </button>
      {error ? (
        <span role="alert" className="text-xs text-rose-700">
          {error}
        </span>
      ) : null}
    </>
  );
}
