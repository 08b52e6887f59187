"use client";
import { useActionState } from "react";
import type { ActionResult, FormAction } from "@/lib/http/action-result";
import { ActionError } from "@/components/shell/ActionError";

type Added = { ok?: string; password?: string };
export type AddUserAction = FormAction<Added>;

const input = "mt-1 w-full rounded border border-slate-300 px-2 py-1.5 text-sm focus:border-indigo-500 focus:outline-none";

export function AddUserForm({ action: addUser }: { action: AddUserAction }) {
  const [state, action, pending] = useActionState<ActionResult<Added>, FormData>(addUser, {});
  return (
    <form action={action} className="h-fit space-y-3 rounded-lg border border-slate-200 bg-white p-4" aria-label="Add user">
      <h2 className="text-sm font-semibold">Add a user</h2>
      <label className="block text-xs text-slate-600">
        Email
        <input name="email" type="email" required className={input} />
      </label>
      <label className="block text-xs text-slate-600">
        Name (optional)
        <input name="name" className={input} />
      </label>
      <label className="block text-xs text-slate-600">
        Role
        <select name="role" defaultValue="annotator" className={input}>
          <option value="annotator">annotator</option>
          <option value="researcher">researcher</option>
          <option value="admin">admin</option>
        </select>
      </label>
      <label className="block text-xs text-slate-600">
        Password (empty: generate one)
        <input name="password" type="password" minLength={8} className={input} />
      </label>
      <ActionError error={state.error} className="rounded bg-rose-50 px-2 py-1" />
      {state.ok ? (
        <p role="status" className="rounded bg-emerald-50 px-2 py-1 text-xs text-emerald-800">
          {state.ok}
          {state.password ? (
            <>
              {" "}
              Password (shown once):{" "}
              <code className="font-mono" data-testid="generated-password">
                {state.password}
              </code>
            </>
          ) : null}
        </p>
      ) : null}
      <button
        disabled={pending}
        className="w-full rounded bg-indigo-600 px-3 py-1.5 text-sm font-medium text-white hover:bg-indigo-700 disabled:opacity-60"
      >
        Add user
      </button>
    </form>
  );
}
