"use server";
import { revalidatePath } from "next/cache";
import { getDb } from "@/db/client";
import { runAction, type ActionResult } from "@/lib/auth/action";
import { saveLimitsForm } from "@/lib/experiments/limits";

export type LimitsActionState = ActionResult<{ ok?: string }>;

export async function saveLimitsAction(_prev: LimitsActionState, form: FormData): Promise<LimitsActionState> {
  return runAction(["admin"], (me) => {
    const r = saveLimitsForm(getDb(), form, me.id);
    revalidatePath("/admin/settings");
    return { ok: r.ok };
  });
}
