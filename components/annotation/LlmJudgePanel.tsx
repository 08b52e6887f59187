"use client";
import { fetchRetry } from "@/lib/fetch-retry";
import { BatchStates } from "@/components/llm/BatchStates";
import { BatchApiNote } from "@/components/llm/BatchApiNote";
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
export function LlmJudgePanel(props: {
  campaignId: number;
  kind: string;
  judgeLabel: string;
  initialRuns: Run[];
  choices: string[];
  /** The choices on an endpoint marked as serving the Batch API (Admin → Models); a batch is offered for every choice. */
  batchApiChoices: string[];
}) {
  const { campaignId, kind, judgeLabel, choices } = props;
  const router = useRouter();
  const [runs, setRuns] = useState<Run[]>(props.initialRuns);
  const [form, setForm] = useState({ modelConfig: "judge", temperature: "0", tieMargin: "0", seed: "1" });
  const [batch, setBatch] = useState(false);
  const [estimate, setEstimate] = useState<Estimate | null>(null);
  const [error, setError] = useState<string | null>(null);
  const wasRunning = useRef(props.initialRuns.some((r) => r.running));

  const load = useCallback(async () => {
    // A dropped connection is retried, then named ("Could not load the judge runs: ..."), never "Failed to fetch".
    const r = await fetchRetry(`/api/campaigns/${campaignId}/llm-judge`, { cache: "no-store", what: "load the judge runs" }).catch(
      (e: Error) => e,
    );
    if (r instanceof Error) return setError(r.message);
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
    const r = await fetchRetry(`/api/campaigns/${campaignId}/llm-judge`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ ...form, dryRun, batch }),
      what: dryRun ? "estimate the judge run" : "start the judge run",
    }).catch((e: Error) => e);
    if (r instanceof Error) return setError(r.message);
    const b = await r.json().catch(() => ({}));
    if (!r.ok) return setError(b.error ?? `HTTP ${r.status}`);
    setEstimate(b.estimate);
    if (!dryRun) {
      wasRunning.current = true;
      await load();
    }
  }

  /** Resume a paused run with its recorded settings, or cancel one (issue 44.3). */
  async function control(run: number, action: "resume" | "cancel") {
    setError(null);
    const r = await fetchRetry(`/api/campaigns/${campaignId}/llm-judge`, {
      method: "PATCH",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ run, action }),
      what: `${action} the judge run`,
    }).catch((e: Error) => e);
    if (r instanceof Error) return setError(r.message);
    const b = await r.json().catch(() => ({}));
    if (!r.ok) return setError(b.error ?? `HTTP ${r.status}`);
    if (action === "resume") wasRunning.current = true;
    await load();
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
        <label
          className="flex items-center gap-1 text-xs text-slate-600"
          title="The endpoint's Batch API: half the price, answered within 24 hours"
        >
          <input type="checkbox" checked={batch} onChange={(e) => setBatch(e.target.checked)} />
          Send as a batch
        </label>
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
      {batch && !props.batchApiChoices.includes(form.modelConfig) ? <BatchApiNote /> : null}
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
            <RunBar run={r} />
            <span className="tabular-nums" data-testid="llm-run-progress">
              {r.judged}/{r.total} judged{r.failed ? `, ${r.failed} failed` : ""} ·{" "}
              {r.running
                ? "running"
                : r.pausedReason === "cancelled"
                  ? "cancelled"
                  : r.pausedReason
                    ? "paused — fix the cause, then Resume"
                    : r.judged === r.total
                      ? "complete"
                      : r.judged + r.failed === r.total
                        ? `done, ${r.failed} failed — run again to retry them`
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
          {r.pausedReason && !r.running ? (
            <div
              role="status"
              data-testid="llm-run-paused"
              className="mt-1 rounded border border-amber-300 bg-amber-50 px-2 py-1.5 text-xs text-amber-900"
            >
              <p className="font-medium">
                {r.pausedReason === "cancelled" ? "Cancelled." : "Paused: "}
                {r.pausedReason === "cancelled" ? null : r.pausedReason.replace(/^paused by its spend guard: /, "")}
              </p>
              {r.pauseHint ? (
                <p className="mt-0.5" data-testid="llm-run-hint">
                  {r.pauseHint} (the same check as Admin → Models → Test connection)
                </p>
              ) : null}
              <div className="mt-1 flex gap-2">
                <button
                  type="button"
                  className="rounded bg-indigo-600 px-2 py-0.5 text-white hover:bg-indigo-700"
                  onClick={() => void control(r.runId, "resume")}
                >
                  Resume
                </button>
                {r.pausedReason !== "cancelled" ? (
                  <button
                    type="button"
                    className="rounded border border-amber-400 px-2 py-0.5"
                    onClick={() => void control(r.runId, "cancel")}
                  >
                    Cancel
                  </button>
                ) : null}
              </div>
            </div>
          ) : null}
          {r.running ? (
            <button
              type="button"
              className="mt-1 rounded border border-slate-300 px-2 py-0.5 text-xs hover:bg-slate-50"
              onClick={() => void control(r.runId, "cancel")}
            >
              Cancel run
            </button>
          ) : null}
          <BatchStates batches={r.batches} />
          <div className="text-xs text-slate-500">
            {r.requests} requests, {r.cacheHits} cache hits, {r.promptTokens + r.completionTokens} tokens (ledger)
            {r.unusableAttempts ? ` · ${r.unusableAttempts} attempts with unusable replies (counted)` : ""}
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

/** The run's bar: green only when every verdict was made; amber when some failed or the run paused. */
function RunBar({ run: r }: { run: Run }) {
  const share = r.total ? (r.judged + r.failed) / r.total : 0;
  const tone = r.running
    ? "bg-indigo-500"
    : r.failed > 0 || r.pausedReason
      ? "bg-amber-500"
      : r.judged === r.total
        ? "bg-emerald-500"
        : "bg-slate-400";
  return (
    <div
      className="h-2 w-48 rounded bg-slate-100"
      role="progressbar"
      aria-label={`${r.name}: verdicts made`}
      aria-valuemin={0}
      aria-valuemax={r.total}
      aria-valuenow={r.judged + r.failed}
      data-tone={tone}
    >
      <div className={`h-2 rounded ${tone}`} style={{ width: `${Math.round(share * 100)}%` }} />
    </div>
  );
}
