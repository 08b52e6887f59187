"use client";
import { useActionState } from "react";
import type { ActionResult, FormAction } from "@/lib/http/action-result";
import { ActionError } from "@/components/shell/ActionError";

type State = ActionResult<{ ok?: string }>;
export type ExcludeAction = FormAction<{ ok?: string }>;

/** Exclude (with a reason) or include again; a refusal is shown beside the button. */
export function ExcludeParticipantForm(props: {
  campaignId: number;
  participantId: number;
  excluded: boolean;
  reason: string | null;
  action: ExcludeAction;
}) {
  const [state, action, pending] = useActionState<State, FormData>(props.action, {});
  return (
    <form action={action} className="flex flex-wrap items-center gap-1" aria-label={`Exclusion of participant ${props.participantId}`}>
      <input type="hidden" name="campaignId" value={props.campaignId} />
      <input type="hidden" name="participantId" value={props.participantId} />
      <input type="hidden" name="excluded" value={props.excluded ? "false" : "true"} />
      {props.excluded ? (
        <span className="text-xs text-rose-700">excluded{props.reason ? `: ${props.reason}` : ""}</span>
      ) : (
        <input
          name="reason"
          placeholder="reason"
          aria-label="Reason"
          className="w-28 rounded border border-slate-300 px-1 py-0.5 text-xs"
        />
      )}
      <button disabled={pending} className="rounded border border-slate-300 px-2 py-0.5 text-xs">
        {props.excluded ? "Include" : "Exclude"}
      </button>
      <ActionError error={state.error} inline />
    </form>
  );
}
