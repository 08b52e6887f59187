"use client";
import { useActionState } from "react";
import { deleteModelAction, type ModelActionState } from "@/app/(app)/admin/models/actions";
import { ActionError } from "@/components/shell/ActionError";

/** Removes a named judge's saved settings; a refusal (already removed, a tampered name) is shown. */
export function RemoveJudgeForm({ name }: { name: string }) {
  const [state, action, pending] = useActionState<ModelActionState, FormData>(deleteModelAction, {});
  return (
    <form action={action} className="mt-1 text-right" aria-label={`Remove ${name}`}>
      <input type="hidden" name="name" value={name} />
      <button disabled={pending} className="text-xs text-rose-600 hover:underline">
        Remove {name}
      </button>
      <ActionError error={state.error} />
    </form>
  );
}
