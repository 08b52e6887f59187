"use client";
import { useActionState } from "react";
import type { ActionResult, FormAction } from "@/lib/http/action-result";
import { ActionError } from "@/components/shell/ActionError";

export type RemoveJudgeAction = FormAction<{ ok?: string }>;

/** Removes a named judge's saved settings; a refusal (already removed, a tampered name) is shown. */
export function RemoveJudgeForm({ name, action: remove }: { name: string; action: RemoveJudgeAction }) {
  const [state, action, pending] = useActionState<ActionResult<{ ok?: string }>, FormData>(remove, {});
  return (
    <form action={action} className="mt-1 text-right" aria-label={`Remove ${name}`}>
      <input type="hidden" name="name" value={name} />
      <button disabled={pending} className="text-xs text-rose-700 hover:underline">
        Remove {name}
      </button>
      <ActionError error={state.error} />
    </form>
  );
}
