"use server";
import { revalidatePath } from "next/cache";
import { getDb } from "@/db/client";
import { runAction, type ActionResult } from "@/lib/auth/action";
import { addMethodForm, checkMethodForm, removeMethodForm, resetMethodForm } from "@/lib/experiments/method-forms";
import type { CheckReport } from "@/lib/assistants/external/check";
import type { ResetReport } from "@/lib/assistants/external/reset";

export type MethodActionState = ActionResult<{ ok?: string }>;
export type CheckActionState = ActionResult<{ report?: CheckReport }>;
export type ResetActionState = ActionResult<{ reset?: ResetReport }>;

export async function addMethodAction(_prev: MethodActionState, form: FormData): Promise<MethodActionState> {
  return runAction(["admin"], () => {
    const r = addMethodForm(getDb(), form);
    revalidatePath("/admin/methods");
    return r;
  });
}

export async function removeMethodAction(_prev: MethodActionState, form: FormData): Promise<MethodActionState> {
  return runAction(["admin"], () => {
    const r = removeMethodForm(getDb(), form);
    revalidatePath("/admin/methods");
    return r;
  });
}

export async function checkMethodAction(_prev: unknown, form: FormData): Promise<CheckActionState> {
  return runAction(["admin"], () => checkMethodForm(getDb(), form));
}

export async function resetMethodAction(_prev: unknown, form: FormData): Promise<ResetActionState> {
  return runAction(["admin"], () => resetMethodForm(getDb(), form));
}
