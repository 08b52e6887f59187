"use server";
import { revalidatePath } from "next/cache";
import { getDb } from "@/db/client";
import { runAction, type ActionResult } from "@/lib/auth/action";
import { adjudicateForm, setCampaignStatusForm } from "@/lib/annotation/forms";
import { requireRole } from "@/lib/auth/session";
import { applyPairwiseTieMargin } from "@/lib/annotation/calibration";

export type ActionState = ActionResult<{ ok?: string }>;

export async function setStatusAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  return runAction(["admin", "researcher"], () => {
    const r = setCampaignStatusForm(getDb(), form);
    revalidatePath(`/campaigns/${r.campaignId}`);
    return { ok: r.ok };
  });
}

export async function adjudicateAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  return runAction(["admin", "researcher"], (user) => {
    const r = adjudicateForm(getDb(), form, user.id);
    revalidatePath(`/campaigns/${r.campaignId}/items/${r.itemId}`);
    return { ok: r.ok };
  });
}

/** Applies a calibrated tie margin to an experiment's pairwise results (or resets it when margin is empty). */
export async function applyTieMarginAction(form: FormData): Promise<void> {
  await requireRole("admin", "researcher");
  const campaignId = Number(form.get("campaignId"));
  const experimentId = Number(form.get("experimentId"));
  const raw = String(form.get("margin") ?? "");
  const margin = raw === "" ? null : Number(raw);
  applyPairwiseTieMargin(getDb(), experimentId, margin, margin === null ? null : String(form.get("source") ?? `campaign ${campaignId}`));
  revalidatePath(`/campaigns/${campaignId}`);
  revalidatePath(`/experiments/${experimentId}`);
}
