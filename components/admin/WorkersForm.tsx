"use client";
import { useActionState } from "react";
import type { ActionResult, FormAction } from "@/lib/http/action-result";
import { ActionError } from "@/components/shell/ActionError";
import { SaveRow } from "./SaveRow";

const input = "mt-1 w-40 rounded border border-slate-300 px-2 py-1.5 text-sm focus:border-indigo-500 focus:outline-none";

/** The worker count of the runs the server starts, with what the server's worker is doing now. */
export function WorkersForm({
  workers,
  max,
  now,
  action: saveWorkers,
}: {
  workers: number;
  max: number;
  /** The experiment the server runs in more than one process now (null: none). */
  now: { experimentId: number; processes: number } | null;
  /** The page's save-workers server action. */
  action: FormAction<{ ok?: string }>;
}) {
  const [state, action, pending] = useActionState<ActionResult<{ ok?: string }>, FormData>(saveWorkers, {});
  return (
    <form action={action} className="max-w-2xl space-y-4 rounded-lg border border-slate-200 bg-white p-4" aria-label="Worker processes">
      <h2 className="text-sm font-semibold">Worker processes</h2>
      <label className="block text-sm text-slate-700">
        <span className="font-medium">Processes per run</span>
        <span className="block text-xs text-slate-500">
          how many processes run the jobs of an experiment launched here; more than 1 helps when a fast model endpoint waits on this
          server&apos;s CPU. They share the run&apos;s queue, so no job runs twice. Default 1, at most {max} (twice this machine&apos;s
          cores). The CLI&apos;s own count is <code>pal run --workers N</code> or PAL_WORKERS.
        </span>
        <input name="workers" inputMode="numeric" defaultValue={String(workers)} className={input} aria-label="Processes per run" />
      </label>
      <p className="text-xs text-slate-600" data-testid="workers-now">
        {now ? `Now: experiment ${now.experimentId} runs in ${now.processes} processes.` : "Now: no run uses more than one process."}
      </p>
      <SaveRow label="Save worker count" pending={pending} ok={state.ok} />
      <ActionError error={state.error} className="rounded bg-rose-50 px-2 py-1" />
    </form>
  );
}
