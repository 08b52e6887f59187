"use server";
import { revalidatePath } from "next/cache";
import { getDb } from "@/db/client";
import type { Role } from "@/db/schema";
import { runAction } from "@/lib/auth/action";
import { createUser, updateUser } from "@/lib/users/users";
import { generatePassword } from "@/lib/users/password";

export type ActionState = { ok?: string; error?: string; password?: string };

export async function addUserAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  return runAction(["admin"], async () => {
    const given = String(form.get("password") ?? "");
    const password = given || generatePassword();
    const u = await createUser(getDb(), {
      email: String(form.get("email") ?? ""),
      name: String(form.get("name") ?? "") || undefined,
      role: String(form.get("role") ?? "") as Role,
      password,
    });
    revalidatePath("/admin/users");
    return { ok: `Created ${u.role} ${u.email}.`, password: given ? undefined : password };
  });
}

export async function setRoleAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  return runAction(["admin"], (me) => {
    const u = updateUser(getDb(), Number(form.get("id")), { role: String(form.get("role")) as Role }, me.id);
    revalidatePath("/admin/users");
    return { ok: `${u.email} is now ${u.role}.` };
  });
}

export async function setDisabledAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  return runAction(["admin"], (me) => {
    const u = updateUser(getDb(), Number(form.get("id")), { disabled: form.get("disabled") === "true" }, me.id);
    revalidatePath("/admin/users");
    return { ok: `${u.email} ${u.disabled ? "disabled" : "enabled"}.` };
  });
}
