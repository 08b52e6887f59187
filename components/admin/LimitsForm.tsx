"use client";
import { useActionState } from "react";
import type { ActionResult, FormAction } from "@/lib/http/action-result";
import type { ExperimentLimits } from "@/lib/experiments/limits";
import { ActionError } from "@/components/shell/ActionError";
import { SaveRow } from "./SaveRow";

const input = "mt-1 w-40 rounded border border-slate-300 px-2 py-1.5 text-sm focus:border-indigo-500 focus:outline-none";
const HELP: Record<keyof ExperimentLimits, string> = {
  maxMethods: "methods (or labelled option sets) in one experiment config",
  maxRepeats: "runs of the same config with distinct replicate indices",
  maxJobs: "items × methods × repeats, plus the pairwise dialogue judgments",
  launchesPerMinute: "experiments one user may launch in any 60 seconds (the CLI is not counted)",
};

/** The experiment limits: each field with its default and the highest value allowed. */
export function LimitsForm({
  limits,
  defaults,
  ceilings,
  labels,
  action: saveLimits,
}: {
  limits: ExperimentLimits;
  defaults: ExperimentLimits;
  ceilings: ExperimentLimits;
  labels: Record<keyof ExperimentLimits, string>;
  /** The page's save-limits server action. */
  action: FormAction<{ ok?: string }>;
}) {
  const [state, action, pending] = useActionState<ActionResult<{ ok?: string }>, FormData>(saveLimits, {});
  const keys = Object.keys(defaults) as Array<keyof ExperimentLimits>;
  return (
    <form action={action} className="max-w-2xl space-y-4 rounded-lg border border-slate-200 bg-white p-4" aria-label="Experiment limits">
      <h2 className="text-sm font-semibold">Experiment limits</h2>
      {keys.map((k) => (
        <label key={k} className="block text-sm text-slate-700">
          <span className="font-medium first-letter:uppercase">{labels[k]}</span>
          <span className="block text-xs text-slate-500">
            {HELP[k]}; default {defaults[k].toLocaleString("en")}, at most {ceilings[k].toLocaleString("en")}
          </span>
          <input name={k} inputMode="numeric" defaultValue={String(limits[k])} className={input} aria-label={labels[k]} />
        </label>
      ))}
      <SaveRow label="Save limits" pending={pending} ok={state.ok} />
      <ActionError error={state.error} className="rounded bg-rose-50 px-2 py-1" />
    </form>
  );
}
