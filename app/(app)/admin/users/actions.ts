"use server";
import { revalidatePath } from "next/cache";
import { getDb } from "@/db/client";
import { ROLES, type Role } from "@/db/schema";
import { requireRole } from "@/lib/auth/session";
import { createUser, updateUser, UserError } from "@/lib/users/users";
import { generatePassword } from "@/lib/auth/password";

export type ActionState = { ok?: string; error?: string; password?: string };

export async function addUserAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  await requireRole("admin");
  const given = String(form.get("password") ?? "");
  const password = given || generatePassword();
  try {
    const u = await createUser(getDb(), {
      email: String(form.get("email") ?? ""),
      name: String(form.get("name") ?? "") || undefined,
      role: String(form.get("role") ?? "") as Role,
      password,
    });
    revalidatePath("/admin/users");
    return { ok: `Created ${u.role} ${u.email}.`, password: given ? undefined : password };
  } catch (e) {
    if (e instanceof UserError) return { error: e.message };
    throw e;
  }
}

export async function setRoleAction(form: FormData): Promise<void> {
  const me = await requireRole("admin");
  const id = Number(form.get("id"));
  const role = String(form.get("role"));
  if (!ROLES.includes(role as Role)) throw new Error("invalid role");
  // An admin cannot demote themselves and lock everybody out.
  if (id === me.id && role !== "admin") throw new Error("you cannot change your own role");
  updateUser(getDb(), id, { role: role as Role });
  revalidatePath("/admin/users");
}

export async function setDisabledAction(form: FormData): Promise<void> {
  const me = await requireRole("admin");
  const id = Number(form.get("id"));
  const disabled = form.get("disabled") === "true";
  if (id === me.id && disabled) throw new Error("you cannot disable your own account");
  updateUser(getDb(), id, { disabled });
  revalidatePath("/admin/users");
}
