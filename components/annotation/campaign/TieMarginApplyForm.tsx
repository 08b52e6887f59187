"use client";
/**
 * "Apply margin": applies a calibrated tie margin to an experiment's pairwise results. A refusal (a
 * tampered margin, an experiment without pairwise results) is shown beside the button, not a 500.
 */
import { useActionState } from "react";
import type { ActionResult, FormAction } from "@/lib/http/action-result";
import { ActionError } from "@/components/shell/ActionError";

type State = ActionResult<{ ok?: string }>;
export type TieMarginAction = FormAction<{ ok?: string }>;

export function TieMarginApplyForm({
  action: apply,
  campaignId,
  source,
  best,
  initial,
  margins,
  targets,
  ownExperiment,
}: {
  action: TieMarginAction;
  campaignId: number;
  /** Where the margin comes from, stored beside the experiment's W/T/L. */
  source: string;
  /** The best margin, none when every kappa is undefined (the margin is then chosen by hand). */
  best: number | null;
  /** The margin selected at first. */
  initial: number;
  margins: number[];
  targets: Array<{ id: number; name: string; margin: number | null }>;
  ownExperiment: number | null;
}) {
  const [state, action, pending] = useActionState<State, FormData>(apply, {});
  return (
    <form action={action} className="flex flex-wrap items-center gap-2 text-sm" data-testid="apply-margin">
      <input type="hidden" name="campaignId" value={campaignId} />
      <input type="hidden" name="source" value={source} />
      <label className="text-xs text-slate-600">
        Margin{" "}
        <select
          name="margin"
          defaultValue={String(initial)}
          className="rounded border border-slate-300 px-1 py-0.5"
          aria-label="Margin to apply"
        >
          {margins.map((m) => (
            <option key={m} value={String(m)}>
              {m.toFixed(2)}
              {m === best ? " (best)" : ""}
            </option>
          ))}
        </select>
      </label>
      {targets.length ? (
        <>
          <label className="text-xs text-slate-600">
            to the pairwise results of{" "}
            <select
              name="experimentId"
              defaultValue={String(ownExperiment ?? targets[0].id)}
              className="rounded border border-slate-300 px-1 py-0.5"
              aria-label="Experiment"
            >
              {targets.map((e) => (
                <option key={e.id} value={e.id}>
                  #{e.id} {e.name}
                  {e.margin !== null ? ` (now margin ${e.margin})` : ""}
                </option>
              ))}
            </select>
          </label>
          <button disabled={pending} className="rounded bg-indigo-600 px-3 py-1 text-white">
            Apply margin
          </button>
          <span className="text-xs text-slate-500" data-testid="applied-margins">
            {targets
              .filter((e) => e.margin !== null)
              .map((e) => `#${e.id} reads W/T/L at margin ${e.margin}`)
              .join(" · ") || "no experiment has an applied margin"}
          </span>
          {state.ok ? <span className="text-xs text-emerald-700">{state.ok}</span> : null}
          <ActionError error={state.error} inline />
        </>
      ) : (
        <span className="text-xs text-slate-500">No experiment has pairwise dialogue results to apply it to yet.</span>
      )}
    </form>
  );
}
