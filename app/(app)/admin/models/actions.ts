"use server";
import { revalidatePath } from "next/cache";
import { getDb } from "@/db/client";
import { runAction, type ActionResult } from "@/lib/auth/action";
import type { ModelCheck } from "@/lib/llm/check";
import { deleteEndpointForm, deleteModelForm, saveEndpointForm, saveModelForm, testModelForm } from "@/lib/llm/model-forms";

export type ModelActionState = ActionResult<{ ok?: string; check?: ModelCheck }>;

export async function saveModelAction(_prev: ModelActionState, form: FormData): Promise<ModelActionState> {
  return runAction(["admin"], () => {
    const r = saveModelForm(getDb(), form);
    revalidatePath("/admin/models");
    return r;
  });
}

export async function testModelAction(_prev: ModelActionState, form: FormData): Promise<ModelActionState> {
  return runAction(["admin"], () => testModelForm(getDb(), form));
}

export async function deleteModelAction(_prev: ModelActionState, form: FormData): Promise<ModelActionState> {
  return runAction(["admin"], () => {
    const r = deleteModelForm(getDb(), form);
    revalidatePath("/admin/models");
    return r;
  });
}

export async function saveEndpointAction(_prev: ModelActionState, form: FormData): Promise<ModelActionState> {
  return runAction(["admin"], () => {
    const r = saveEndpointForm(getDb(), form);
    revalidatePath("/admin/models");
    return r;
  });
}

export async function deleteEndpointAction(_prev: ModelActionState, form: FormData): Promise<ModelActionState> {
  return runAction(["admin"], () => {
    const r = deleteEndpointForm(getDb(), form);
    revalidatePath("/admin/models");
    return r;
  });
}
