"use client";
import { useRouter } from "next/navigation";
import { useState } from "react";

/** Uploads a JSONL file of judge verdicts for this campaign's items. */
export function JudgeImportForm({ campaignId }: { campaignId: number }) {
  const router = useRouter();
  const [msg, setMsg] = useState<{ ok?: string; error?: string }>({});
  async function onSubmit(e: React.FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const r = await fetch(`/api/campaigns/${campaignId}/judges`, { method: "POST", body: new FormData(e.currentTarget) });
    const b = await r.json().catch(() => ({}));
    if (!r.ok) return setMsg({ error: b.error ?? `HTTP ${r.status}` });
    setMsg({ ok: `Imported ${b.labels} verdicts.` });
    router.refresh();
  }
  return (
    <form onSubmit={onSubmit} className="flex flex-wrap items-end gap-2 text-sm" aria-label="Import judge verdicts">
      <label className="text-xs text-slate-600">
        Judge name
        <input name="name" required className="mt-1 block rounded border border-slate-300 px-2 py-1" />
      </label>
      <label className="text-xs text-slate-600">
        Model
        <input name="model" className="mt-1 block rounded border border-slate-300 px-2 py-1" />
      </label>
      <input name="file" type="file" accept=".jsonl,.txt" required aria-label="Verdicts file" />
      <button className="rounded border border-slate-300 px-3 py-1">Import verdicts</button>
      {msg.error ? (
        <span role="alert" className="text-rose-700">
          {msg.error}
        </span>
      ) : null}
      {msg.ok ? (
        <span role="status" className="text-emerald-700">
          {msg.ok}
        </span>
      ) : null}
    </form>
  );
}
