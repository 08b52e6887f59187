"use client";
/**
 * Edits a running campaign's guidelines (issue 43.5): saving makes a new version, which annotators see
 * from their next page. Like the creation form, it warns while the text names a compared system and the
 * server refuses it unless the override is ticked.
 */
import { startTransition, useActionState, useState } from "react";
import type { ActionResult, FormAction } from "@/lib/http/action-result";
import { systemsNamedIn } from "@/lib/annotation/blinding";
import { ActionError } from "@/components/shell/ActionError";

type State = ActionResult<{ ok?: string }>;
export type EditGuidelinesAction = FormAction<{ ok?: string }>;

export function GuidelinesEditForm({
  campaignId,
  current,
  version,
  systems,
  action: save,
}: {
  campaignId: number;
  current: string;
  version: number;
  /** The compared systems' names (never shown to annotators), for the live warning. */
  systems: string[];
  action: EditGuidelinesAction;
}) {
  const [state, action, pending] = useActionState<State, FormData>(save, {});
  const [text, setText] = useState(current);
  const [showNames, setShowNames] = useState(false);
  const named = systemsNamedIn(systems, ["", text]);
  const unchanged = text.trim() === current.trim();
  // Not <form action>: React would reset the fields after the action, showing other values than the state's.
  const submit = (e: React.FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    startTransition(() => action(form));
  };
  return (
    <form onSubmit={submit} className="space-y-2" aria-label="Edit guidelines">
      <input type="hidden" name="campaignId" value={campaignId} />
      <label className="block text-sm font-medium">
        Guidelines (Markdown) · now version {version}
        <textarea
          name="guidelines"
          rows={14}
          value={text}
          onChange={(e) => setText(e.target.value)}
          className="mt-1 w-full rounded border border-slate-300 px-2 py-1 font-mono text-sm"
        />
      </label>
      {named.length ? (
        <div role="status" className="rounded bg-amber-50 px-2 py-1 text-sm text-amber-900" data-testid="names-system-warning">
          <p>
            The guidelines mention {named.map((n) => `“${n.system}”`).join(" and ")}: annotators read them, so they would know which system
            is which. Reword them before saving.
          </p>
          <label className="mt-1 flex items-center gap-2">
            <input type="checkbox" name="showSystemNames" checked={showNames} onChange={(e) => setShowNames(e.target.checked)} />
            Show these names to annotators anyway (the agreement page and exports will say the campaign was not blind)
          </label>
        </div>
      ) : null}
      <div className="flex items-center gap-3">
        <button
          disabled={pending || unchanged || (named.length > 0 && !showNames)}
          className="rounded bg-indigo-600 px-4 py-1.5 text-sm font-medium text-white disabled:opacity-60"
        >
          {pending ? "Saving…" : `Save as version ${version + 1}`}
        </button>
        <span className="text-xs text-slate-500">Labels already given keep the version they were given under.</span>
        <ActionError error={state.error} inline />
        {state.ok ? (
          <span role="status" className="text-sm text-emerald-700">
            {state.ok}
          </span>
        ) : null}
      </div>
    </form>
  );
}
