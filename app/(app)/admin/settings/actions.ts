"use server";
import { revalidatePath } from "next/cache";
import { getDb } from "@/db/client";
import { runAction, type ActionResult } from "@/lib/auth/action";
import { saveLimitsForm } from "@/lib/experiments/limits";
import { saveWorkersForm } from "@/lib/experiments/worker-count";

export type LimitsActionState = ActionResult<{ ok?: string }>;

export async function saveLimitsAction(_prev: LimitsActionState, form: FormData): Promise<LimitsActionState> {
  return runAction(["admin"], (me) => {
    const r = saveLimitsForm(getDb(), form, me.id);
    revalidatePath("/admin/settings");
    return { ok: r.ok };
  });
}

export async function saveWorkersAction(_prev: LimitsActionState, form: FormData): Promise<LimitsActionState> {
  return runAction(["admin"], (me) => {
    const r = saveWorkersForm(getDb(), form, me.id);
    revalidatePath("/admin/settings");
    return { ok: r.ok };
  });
}
