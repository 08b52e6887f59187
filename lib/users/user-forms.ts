/** Admin → Users server-action forms, validated at the boundary (lib/http/form.ts). */
import { z } from "zod";
import type { Db } from "@/db/client";
import { ACCOUNT_ROLES } from "@/db/schema";
import { generatePassword } from "@/lib/users/password";
import { formBool, formId, formText, parseForm } from "@/lib/http/form";
import { NotFoundError } from "@/lib/errors";
import { createUser, getUser, setPassword, updateUser } from "./users";
import { issueSignInLink, revokeSignInLink } from "./sign-in-links";

const role = z.enum(ACCOUNT_ROLES, { error: `expected one of ${ACCOUNT_ROLES.join(", ")}` });

const addFields = z.object({ email: formText(320), name: formText(200), role, password: formText(1000) });

/** A new account; an empty password field generates one, returned once. */
export async function addUserForm(db: Db, form: FormData): Promise<{ ok: string; password?: string }> {
  const f = parseForm(addFields, form);
  const password = f.password || generatePassword();
  const u = await createUser(db, { email: f.email, name: f.name || undefined, role: f.role, password });
  return { ok: `Created ${u.role} ${u.email}.`, password: f.password ? undefined : password };
}

export function setRoleForm(db: Db, form: FormData, actorId: number): { ok: string } {
  const f = parseForm(z.object({ id: formId("user"), role }), form);
  const u = updateUser(db, f.id, { role: f.role }, actorId);
  return { ok: `${u.email} is now ${u.role}.` };
}

export function setDisabledForm(db: Db, form: FormData, actorId: number): { ok: string } {
  const f = parseForm(z.object({ id: formId("user"), disabled: formBool }), form);
  const u = updateUser(db, f.id, { disabled: f.disabled }, actorId);
  return { ok: `${u.email} ${u.disabled ? "disabled" : "enabled"}.` };
}

/**
 * A forgotten password (issue 44.7): the admin sets a new generated one on the account, shown once to hand
 * over; the old one stops working at once.
 */
export async function resetPasswordForm(db: Db, form: FormData): Promise<{ ok: string; password: string }> {
  const f = parseForm(z.object({ id: formId("user") }), form);
  const u = getUser(db, f.id);
  if (!u) throw new NotFoundError(`no user with id ${f.id}`);
  const password = generatePassword();
  await setPassword(db, u.id, password);
  return { ok: `New password for ${u.email} (shown once; hand it over, they can sign in with it now):`, password };
}

/**
 * A one-time sign-in link for an account (issue 44.7): its path is returned once, to copy; the page makes
 * the full address. It lasts `hours` (default 24) and signs in once.
 */
export function issueLinkForm(db: Db, form: FormData, actorId: number): { ok: string; link: string } {
  const f = parseForm(z.object({ id: formId("user") }), form);
  const l = issueSignInLink(db, f.id, actorId);
  const until = new Date(l.expiresAt).toISOString().slice(0, 16).replace("T", " ");
  return {
    ok: `Sign-in link for ${l.user.email} (shown once; it signs in once, until ${until} UTC, and replaces any earlier link):`,
    link: l.path,
  };
}

export function revokeLinkForm(db: Db, form: FormData): { ok: string } {
  const f = parseForm(z.object({ link: formId("link") }), form);
  const r = revokeSignInLink(db, f.link);
  return { ok: `Revoked the sign-in link of ${r.email}.` };
}
