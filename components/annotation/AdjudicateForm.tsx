"use client";
import { startTransition, useActionState, useState } from "react";
import type { ActionResult, FormAction } from "@/lib/http/action-result";
import { ActionError } from "@/components/shell/ActionError";
import { ADJUDICATION_REASONS } from "@/lib/annotation/adjudication-reasons";

type State = ActionResult<{ ok?: string }>;
export type AdjudicateAction = FormAction<{ ok?: string }>;

export function AdjudicateForm({
  campaignId,
  itemId,
  dimension,
  categories,
  current,
  currentReason = null,
  currentNote = null,
  action: adjudicate,
}: {
  campaignId: number;
  itemId: number;
  dimension: string;
  categories: Array<{ value: string; label: string }>;
  current: string | null;
  currentReason?: string | null;
  currentNote?: string | null;
  action: AdjudicateAction;
}) {
  const [state, action, pending] = useActionState<State, FormData>(adjudicate, {});
  // Submitted by hand, not as <form action>: React resets a form after its action (a select back to its
  // first option, whatever the state says), so a refused decision would lose its label and a recorded one
  // would show another reason than the one stored.
  const [value, setValue] = useState(current ?? "");
  const [reason, setReason] = useState(currentReason ?? "");
  const [note, setNote] = useState(currentNote ?? "");
  // Not <form action>: React would reset the fields after the action, showing other values than the state's.
  const submit = (e: React.FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    startTransition(() => action(form));
  };
  return (
    <form onSubmit={submit} className="flex flex-wrap items-center gap-2 text-xs" aria-label={`Adjudicate ${dimension}`}>
      <input type="hidden" name="campaignId" value={campaignId} />
      <input type="hidden" name="itemId" value={itemId} />
      <input type="hidden" name="dimension" value={dimension} />
      {/* No label is pre-chosen: a default (the scale's first value, "1 · does not match") gets recorded by a careless click. */}
      <select
        name="value"
        value={value}
        onChange={(e) => setValue(e.target.value)}
        required
        aria-label={`Adjudicated label for ${dimension}`}
        className="rounded border border-slate-300 px-1 py-0.5"
      >
        <option value="" disabled>
          choose the label…
        </option>
        {categories.map((c) => (
          <option key={c.value} value={c.value}>
            {c.label}
          </option>
        ))}
      </select>
      <select
        name="reason"
        value={reason}
        onChange={(e) => setReason(e.target.value)}
        required
        aria-label={`Reason for ${dimension}`}
        className="rounded border border-slate-300 px-1 py-0.5"
      >
        <option value="" disabled>
          reason…
        </option>
        {ADJUDICATION_REASONS.map((r) => (
          <option key={r.key} value={r.key}>
            {r.key === "other" ? "other (say why in the note)" : r.label}
          </option>
        ))}
      </select>
      <input
        name="note"
        value={note}
        onChange={(e) => setNote(e.target.value)}
        placeholder="note (required for other)"
        aria-label={`Note for ${dimension}`}
        className="min-w-48 flex-1 rounded border border-slate-300 px-1 py-0.5"
      />
      <button disabled={pending} className="rounded border border-slate-300 px-2 py-0.5">
        Record adjudication
      </button>
      <ActionError error={state.error} inline />
      {state.ok ? (
        <span role="status" className="text-emerald-700">
          {state.ok}
        </span>
      ) : null}
    </form>
  );
}
