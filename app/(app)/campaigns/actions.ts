"use server";
import { revalidatePath } from "next/cache";
import { getDb } from "@/db/client";
import { requireRole } from "@/lib/auth/session";
import { adjudicate, setCampaignStatus } from "@/lib/annotation";
import { isAppError } from "@/lib/errors";
import { applyPairwiseTieMargin } from "@/lib/annotation/calibration";

export type ActionState = { ok?: string; error?: string };

/** Expected failures (AppError) become a message for the form; anything else stays a server error. */
async function asState(run: () => void | Promise<void>, ok: string): Promise<ActionState> {
  try {
    await run();
    return { ok };
  } catch (e) {
    if (isAppError(e)) return { error: e.message };
    throw e;
  }
}

export async function setStatusAction(form: FormData): Promise<void> {
  await requireRole("admin", "researcher");
  const id = Number(form.get("campaignId"));
  setCampaignStatus(getDb(), id, String(form.get("status")) as "open" | "closed");
  revalidatePath(`/campaigns/${id}`);
}

export async function adjudicateAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  const user = await requireRole("admin", "researcher");
  const campaignId = Number(form.get("campaignId"));
  const itemId = Number(form.get("itemId"));
  return asState(() => {
    adjudicate(
      getDb(),
      campaignId,
      itemId,
      String(form.get("dimension")),
      String(form.get("value")),
      String(form.get("note") ?? ""),
      user.id,
    );
    revalidatePath(`/campaigns/${campaignId}/items/${itemId}`);
  }, "Adjudication recorded.");
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
