"use client";
import { useActionState } from "react";
import type { ActionResult, FormAction } from "@/lib/http/action-result";
import { ActionError } from "@/components/shell/ActionError";

type State = ActionResult<{ ok?: string }>;
export type CampaignStatusAction = FormAction<{ ok?: string }>;

/** Close / Reopen a campaign; a refusal (a stale or tampered form) is shown beside the button. */
export function CampaignStatusForm({
  campaignId,
  status,
  action: setStatus,
}: {
  campaignId: number;
  status: string;
  action: CampaignStatusAction;
}) {
  const [state, action, pending] = useActionState<State, FormData>(setStatus, {});
  return (
    <form action={action} className="flex items-center gap-2" aria-label="Campaign status">
      <input type="hidden" name="campaignId" value={campaignId} />
      <input type="hidden" name="status" value={status === "open" ? "closed" : "open"} />
      <button disabled={pending} className="rounded border border-slate-300 px-2 py-1">
        {status === "open" ? "Close" : "Reopen"}
      </button>
      <ActionError error={state.error} inline />
    </form>
  );
}
