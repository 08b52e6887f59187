"use client";
import { useActionState, useState } from "react";
import type { ActionResult, FormAction } from "@/lib/http/action-result";
import { ActionError } from "@/components/shell/ActionError";

type ActionState = ActionResult<{ ok?: string }>;
/** The page's set-role or set-disabled server action. */
export type UserRowAction = FormAction<{ ok?: string }>;

type Row = { id: number; email: string; role: string; disabled: boolean };

function Refusal({ state }: { state: ActionState }) {
  return <ActionError error={state.error} className="mt-1" />;
}

/** A user's role select with Save; `self` shows it read-only (an admin cannot demote themselves). */
export function RoleForm({
  user,
  roles,
  self,
  action: setRole,
}: {
  user: Row;
  roles: readonly string[];
  self: boolean;
  action: UserRowAction;
}) {
  const [state, action, pending] = useActionState<ActionState, FormData>(setRole, {});
  return (
    <form action={action}>
      <div className="flex items-center gap-1">
        <input type="hidden" name="id" value={user.id} />
        <select
          key={user.role /* a select takes its default at mount only; the form is reset to it after each save */}
          name="role"
          defaultValue={user.role}
          disabled={self}
          aria-label={`Role of ${user.email}`}
          className="rounded border border-slate-300 px-1 py-0.5 text-sm"
        >
          {roles.map((r) => (
            <option key={r} value={r}>
              {r}
            </option>
          ))}
        </select>
        {self ? null : (
          <button disabled={pending} className="rounded px-2 py-0.5 text-xs text-indigo-600 hover:bg-indigo-50">
            Save
          </button>
        )}
      </div>
      <Refusal state={state} />
    </form>
  );
}

/** Enable / Disable of one account. */
export function DisableForm({ user, action: setDisabled }: { user: Row; action: UserRowAction }) {
  const [state, action, pending] = useActionState<ActionState, FormData>(setDisabled, {});
  return (
    <form action={action}>
      <input type="hidden" name="id" value={user.id} />
      <input type="hidden" name="disabled" value={String(!user.disabled)} />
      <button disabled={pending} className="rounded px-2 py-0.5 text-xs text-slate-600 hover:bg-slate-100">
        {user.disabled ? "Enable" : "Disable"}
      </button>
      <Refusal state={state} />
    </form>
  );
}

/** Reset password: a new generated password, shown once to hand over (issue 44.7). */
export function ResetPasswordForm({ user, action: reset }: { user: Row; action: FormAction<{ ok?: string; password?: string }> }) {
  const [state, action, pending] = useActionState<ActionResult<{ ok?: string; password?: string }>, FormData>(reset, {});
  return (
    <form action={action}>
      <input type="hidden" name="id" value={user.id} />
      <button disabled={pending} className="rounded px-2 py-0.5 text-xs text-slate-700 hover:bg-slate-100">
        Reset password
      </button>
      {state.password ? (
        <p role="status" className="mt-1 text-left text-xs text-slate-700" data-testid="reset-password">
          {state.ok} <code className="select-all rounded bg-slate-100 px-1">{state.password}</code>
        </p>
      ) : null}
      <ActionError error={state.error} className="mt-1" />
    </form>
  );
}

/**
 * A one-time sign-in link for the account (issue 44.7): issued on press, its full address shown once to copy;
 * an open link (unused, unexpired) is listed with its expiry and Revoke.
 */
export function SignInLinkForm({
  user,
  open,
  issue,
  revoke,
}: {
  user: Row;
  open: Array<{ id: number; expiresAt: number }>;
  issue: FormAction<{ ok?: string; link?: string }>;
  revoke: UserRowAction;
}) {
  const [state, action, pending] = useActionState<ActionResult<{ ok?: string; link?: string }>, FormData>(issue, {});
  const [revokeState, revokeAction, revoking] = useActionState<ActionState, FormData>(revoke, {});
  const [copied, setCopied] = useState(false);
  const url = state.link ? `${window.location.origin}${state.link}` : null;
  return (
    <div className="text-right">
      <form action={action}>
        <input type="hidden" name="id" value={user.id} />
        <button
          disabled={pending || user.disabled}
          className="rounded px-2 py-0.5 text-xs text-slate-700 hover:bg-slate-100"
          data-testid="issue-link"
        >
          Sign-in link
        </button>
      </form>
      {url ? (
        <div role="status" className="mt-1 max-w-xs text-left text-xs text-slate-700" data-testid="issued-link">
          <p>{state.ok}</p>
          <code className="block break-all select-all rounded bg-slate-100 px-1 py-0.5" data-testid="issued-link-url">
            {url}
          </code>
          <button
            type="button"
            className="mt-1 rounded border border-slate-300 px-2 py-0.5 hover:bg-slate-50"
            onClick={() => void navigator.clipboard?.writeText(url).then(() => setCopied(true))}
          >
            {copied ? "Copied" : "Copy"}
          </button>
        </div>
      ) : null}
      <ActionError error={state.error} className="mt-1" />
      {open.map((l) => (
        <form
          key={l.id}
          action={revokeAction}
          className="mt-1 flex items-center justify-end gap-1 text-xs text-slate-600"
          data-testid="open-link"
        >
          <input type="hidden" name="link" value={l.id} />
          link open until {new Date(l.expiresAt).toISOString().slice(0, 16).replace("T", " ")} UTC
          <button disabled={revoking} className="rounded px-2 py-0.5 text-rose-700 hover:bg-rose-50" data-testid="revoke-link">
            Revoke
          </button>
        </form>
      ))}
      {revokeState.ok ? (
        <p role="status" className="mt-1 text-xs text-slate-600">
          {revokeState.ok}
        </p>
      ) : null}
      <ActionError error={revokeState.error} className="mt-1" />
    </div>
  );
}
