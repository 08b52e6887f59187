"use client";
import { useRouter } from "next/navigation";
import { useCallback, useEffect, useRef, useState } from "react";
import type { LlmJudgeEstimate, LlmJudgeRunInfo } from "@/lib/annotation/llm-judge";
import { DeleteJudgeRunButton } from "./DeleteJudgeRunButton";

type Run = LlmJudgeRunInfo;
type Estimate = LlmJudgeEstimate;

/**
 * Runs an LLM judge over the campaign's items: pick the judge configuration, see the dry-run estimate,
 * start it, and watch its progress (polled while a run is going; the page's tables refresh when it ends).
 */
export function LlmJudgePanel(props: { campaignId: number; kind: string; judgeLabel: string; initialRuns: Run[]; choices: string[] }) {
  const { campaignId, kind, judgeLabel, choices } = props;
  const router = useRouter();
  const [runs, setRuns] = useState<Run[]>(props.initialRuns);
  const [form, setForm] = useState({ modelConfig: "judge", temperature: "0.7", tieMargin: "0", seed: "1" });
  const [estimate, setEstimate] = useState<Estimate | null>(null);
  const [error, setError] = useState<string | null>(null);
  const wasRunning = useRef(props.initialRuns.some((r) => r.running));

  const load = useCallback(async () => {
    const r = await fetch(`/api/campaigns/${campaignId}/llm-judge`, { cache: "no-store" });
    const b = await r.json().catch(() => ({}));
    if (!r.ok) return setError(b.error ?? `HTTP ${r.status}`);
    setRuns(b.runs);
    const running = (b.runs as Run[]).some((x) => x.running);
    // A run just ended: the Table 11 / Figure 2 sections are server-rendered, so re-render them.
    if (wasRunning.current && !running) router.refresh();
    wasRunning.current = running;
  }, [campaignId, router]);

  const anyRunning = runs.some((r) => r.running);
  useEffect(() => {
    if (!anyRunning) return;
    const t = setInterval(() => void load(), 1000);
    return () => clearInterval(t);
  }, [anyRunning, load]);

  async function post(dryRun: boolean) {
    setError(null);
    const r = await fetch(`/api/campaigns/${campaignId}/llm-judge`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ ...form, dryRun }),
    });
    const b = await r.json().catch(() => ({}));
    if (!r.ok) return setError(b.error ?? `HTTP ${r.status}`);
    setEstimate(b.estimate);
    if (!dryRun) {
      wasRunning.current = true;
      await load();
    }
  }

  const field = (k: keyof typeof form) => ({
    value: form[k],
    onChange: (e: React.ChangeEvent<HTMLInputElement | HTMLSelectElement>) => setForm({ ...form, [k]: e.target.value }),
  });
  return (
    <div className="space-y-2 rounded border border-slate-200 p-3" data-testid="llm-judge">
      <h3 className="font-medium">Run an LLM judge: {judgeLabel}</h3>
      <div className="flex flex-wrap items-end gap-2 text-sm">
        <label className="text-xs text-slate-600">
          Judge configuration
          <select
            aria-label="Judge configuration"
            className="mt-1 block rounded border border-slate-300 px-2 py-1"
            {...field("modelConfig")}
          >
            {(choices.length ? choices : ["judge"]).map((c) => (
              <option key={c} value={c}>
                {c}
              </option>
            ))}
          </select>
        </label>
        <label className="text-xs text-slate-600">
          Temperature
          <input aria-label="Temperature" className="mt-1 block w-20 rounded border border-slate-300 px-2 py-1" {...field("temperature")} />
        </label>
        {kind === "pairwise-dialogue" ? (
          <label className="text-xs text-slate-600">
            Tie margin
            <input aria-label="Tie margin" className="mt-1 block w-20 rounded border border-slate-300 px-2 py-1" {...field("tieMargin")} />
          </label>
        ) : null}
        {kind === "hicupid-ab" ? (
          <label className="text-xs text-slate-600">
            Slot seed
            <input aria-label="Slot seed" className="mt-1 block w-20 rounded border border-slate-300 px-2 py-1" {...field("seed")} />
          </label>
        ) : null}
        <button type="button" className="rounded border border-slate-300 px-3 py-1" onClick={() => void post(true)}>
          Estimate calls
        </button>
        <button
          type="button"
          className="rounded bg-indigo-600 px-3 py-1 text-white disabled:opacity-50"
          disabled={anyRunning}
          onClick={() => void post(false)}
        >
          Run judge
        </button>
      </div>
      {estimate ? (
        <p className="text-sm" role="status" data-testid="llm-judge-estimate">
          {estimate.modelConfig} ({estimate.model}): {estimate.pending} verdicts to make over {estimate.items} items —{" "}
          <b>{estimate.calls} model calls</b>
          {estimate.calls !== estimate.totalCalls ? ` (${estimate.totalCalls} from scratch; the rest are done)` : ""}.
        </p>
      ) : null}
      {error ? (
        <p role="alert" className="text-sm text-rose-700">
          {error}
        </p>
      ) : null}
      {runs.map((r) => (
        <div key={r.runId} className="text-sm" data-testid={`llm-run-${r.runId}`}>
          <div className="flex items-center gap-2">
            <span className="font-medium">{r.name}</span>
            <progress className="w-48" max={r.total || 1} value={r.judged + r.failed} />
            <span className="tabular-nums" data-testid="llm-run-progress">
              {r.judged}/{r.total} judged{r.failed ? `, ${r.failed} failed` : ""} ·{" "}
              {r.running
                ? "running"
                : r.judged === r.total
                  ? "complete"
                  : r.judged + r.failed === r.total
                    ? "finished with failures — run again to retry them"
                    : "stopped — run again to resume"}
            </span>
            {r.running ? null : (
              <DeleteJudgeRunButton
                campaignId={campaignId}
                runId={r.runId}
                name={r.name}
                onDeleted={() => setRuns((rs) => rs.filter((x) => x.runId !== r.runId))}
              />
            )}
          </div>
          <div className="text-xs text-slate-500">
            {r.requests} requests, {r.cacheHits} cache hits, {r.promptTokens + r.completionTokens} tokens (ledger)
          </div>
          {r.failures.length ? (
            <details className="text-xs">
              <summary className="cursor-pointer text-rose-700">{r.failures.length} items the judge could not judge</summary>
              <ul>
                {r.failures.map((f) => (
                  <li key={`${f.itemId}-${f.dimension}`}>
                    {f.externalId} · {f.dimension}: {f.error}
                  </li>
                ))}
              </ul>
            </details>
          ) : null}
        </div>
      ))}
    </div>
  );
}
