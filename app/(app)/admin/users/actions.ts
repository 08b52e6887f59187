"use server";
import { revalidatePath } from "next/cache";
import { getDb } from "@/db/client";
import { runAction, type ActionResult } from "@/lib/auth/action";
import { addUserForm, issueLinkForm, resetPasswordForm, revokeLinkForm, setDisabledForm, setRoleForm } from "@/lib/users/user-forms";

export type ActionState = ActionResult<{ ok?: string; password?: string }>;

export async function addUserAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  return runAction(["admin"], async () => {
    const r = await addUserForm(getDb(), form);
    revalidatePath("/admin/users");
    return r;
  });
}

export async function setRoleAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  return runAction(["admin"], (me) => {
    const r = setRoleForm(getDb(), form, me.id);
    revalidatePath("/admin/users");
    return r;
  });
}

export async function setDisabledAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  return runAction(["admin"], (me) => {
    const r = setDisabledForm(getDb(), form, me.id);
    revalidatePath("/admin/users");
    return r;
  });
}

export async function resetPasswordAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  return runAction(["admin"], () => resetPasswordForm(getDb(), form));
}

export async function issueLinkAction(
  _prev: ActionResult<{ ok?: string; link?: string }>,
  form: FormData,
): Promise<ActionResult<{ ok?: string; link?: string }>> {
  return runAction(["admin"], (me) => {
    const r = issueLinkForm(getDb(), form, me.id);
    revalidatePath("/admin/users");
    return r;
  });
}

export async function revokeLinkAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  return runAction(["admin"], () => {
    const r = revokeLinkForm(getDb(), form);
    revalidatePath("/admin/users");
    return r;
  });
}
