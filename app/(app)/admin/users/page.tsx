import type { Metadata } from "next";
import { getDb } from "@/db/client";
import { ACCOUNT_ROLES } from "@/db/schema";
import { requireRole } from "@/lib/auth/session";
import { listUsers } from "@/lib/users/users";
import { PageHeader } from "@/components/shell/PageHeader";
import { AddUserForm } from "@/components/admin/AddUserForm";
import { DisableForm, ResetPasswordForm, RoleForm, SignInLinkForm } from "@/components/admin/UserRowForms";
import { openSignInLinks } from "@/lib/users/sign-in-links";
import { addUserAction, issueLinkAction, resetPasswordAction, revokeLinkAction, setDisabledAction, setRoleAction } from "./actions";

export const metadata: Metadata = { title: "Users" };

function when(ms: number | null) {
  return ms ? new Date(ms).toISOString().slice(0, 16).replace("T", " ") : "never";
}

export default async function UsersPage() {
  const me = await requireRole("admin");
  const db = getDb();
  const users = listUsers(db);
  const links = openSignInLinks(db);
  return (
    <>
      <PageHeader
        title="Users"
        subtitle="Accounts and roles. Admins manage users; researchers run data, experiments and campaigns; annotators see only their own queue."
      />
      <div className="grid gap-6 lg:grid-cols-[1fr_20rem]">
        <div className="overflow-hidden rounded-lg border border-slate-200 bg-white">
          <table className="w-full text-sm" data-testid="users-table">
            <thead className="bg-slate-50 text-left text-xs uppercase tracking-wide text-slate-500">
              <tr>
                <th className="px-3 py-2">Email</th>
                <th className="px-3 py-2">Role</th>
                <th className="px-3 py-2">Status</th>
                <th className="px-3 py-2">Last login</th>
                <th className="px-3 py-2" />
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {users.map((u) => (
                <tr key={u.id} data-email={u.email}>
                  <td className="px-3 py-2">
                    <div className="font-medium text-slate-800">{u.email}</div>
                    {u.name ? <div className="text-xs text-slate-500">{u.name}</div> : null}
                  </td>
                  <td className="px-3 py-2">
                    <RoleForm user={u} roles={ACCOUNT_ROLES} self={u.id === me.id} action={setRoleAction} />
                  </td>
                  <td className="px-3 py-2">
                    {u.disabled ? (
                      <span className="rounded bg-rose-50 px-2 py-0.5 text-xs text-rose-700">disabled</span>
                    ) : (
                      <span className="rounded bg-emerald-50 px-2 py-0.5 text-xs text-emerald-700">active</span>
                    )}
                  </td>
                  <td className="px-3 py-2 text-slate-500">{when(u.lastLoginAt)}</td>
                  <td className="px-3 py-2 text-right">
                    {u.id === me.id ? (
                      <span className="text-xs text-slate-500">you</span>
                    ) : (
                      <div className="flex flex-col items-end gap-1">
                        <DisableForm user={u} action={setDisabledAction} />
                        <ResetPasswordForm user={u} action={resetPasswordAction} />
                        <SignInLinkForm
                          user={u}
                          open={links.filter((l) => l.userId === u.id)}
                          issue={issueLinkAction}
                          revoke={revokeLinkAction}
                        />
                      </div>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        <AddUserForm action={addUserAction} />
      </div>
    </>
  );
}
