"use server";
import { revalidatePath } from "next/cache";
import { getDb } from "@/db/client";
import { runAction, type ActionResult } from "@/lib/auth/action";
import {
  adjudicateForm,
  applyTieMarginForm,
  editGuidelinesForm,
  excludeParticipantForm,
  setCampaignStatusForm,
} from "@/lib/annotation/forms";

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
    revalidatePath(`/campaigns/${r.campaignId}/adjudicate`);
    return { ok: r.ok };
  });
}

/** Applies a calibrated tie margin to an experiment's pairwise results (or resets it when margin is empty). */
export async function applyTieMarginAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  return runAction(["admin", "researcher"], () => {
    const r = applyTieMarginForm(getDb(), form);
    revalidatePath(`/campaigns/${r.campaignId}`);
    revalidatePath(`/experiments/${r.experimentId}`);
    return { ok: r.ok };
  });
}

/** Excludes a crowd participant (labels kept and marked, out of agreement) or includes them again. */
export async function excludeParticipantAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  return runAction(["admin", "researcher"], () => {
    const r = excludeParticipantForm(getDb(), form);
    revalidatePath(`/campaigns/${r.campaignId}`);
    return { ok: r.ok };
  });
}

/** Edited guidelines become a new version; labels given from then on record it. */
export async function editGuidelinesAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  return runAction(["admin", "researcher"], (user) => {
    const r = editGuidelinesForm(getDb(), form, user.id);
    revalidatePath(`/campaigns/${r.campaignId}/guidelines`);
    revalidatePath(`/campaigns/${r.campaignId}`);
    return { ok: r.ok };
  });
}
