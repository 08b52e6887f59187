"use server";
import { revalidatePath } from "next/cache";
import { getDb } from "@/db/client";
import { requireRole } from "@/lib/auth/session";
import { isAppError } from "@/lib/errors";
import { checkModel, type ModelCheck } from "@/lib/llm/check";
import { deleteModelSetting, saveModelSetting } from "@/lib/llm/config";

export type ModelActionState = { ok?: string; error?: string; check?: ModelCheck };

/** Expected failures (bad input) go back to the form; anything else stays an error. */
async function asState(fn: () => Promise<ModelActionState> | ModelActionState): Promise<ModelActionState> {
  try {
    return await fn();
  } catch (e) {
    if (isAppError(e)) return { error: e.message };
    throw e;
  }
}

function parseParams(raw: string): Record<string, unknown> | null {
  if (!raw.trim()) return null;
  let v: unknown;
  try {
    v = JSON.parse(raw);
  } catch {
    throw new Error("parameters: not valid JSON");
  }
  if (!v || typeof v !== "object" || Array.isArray(v)) throw new Error("parameters: expected a JSON object");
  return v as Record<string, unknown>;
}

export async function saveModelAction(_prev: ModelActionState, form: FormData): Promise<ModelActionState> {
  await requireRole("admin");
  return asState(() => {
    const name = String(form.get("name") ?? "").trim();
    let params: Record<string, unknown> | null;
    try {
      params = parseParams(String(form.get("params") ?? ""));
    } catch (e) {
      return { error: `${name}: ${(e as Error).message}` };
    }
    const key = String(form.get("apiKey") ?? "");
    saveModelSetting(getDb(), {
      name,
      baseUrl: String(form.get("baseUrl") ?? ""),
      model: String(form.get("model") ?? ""),
      // An empty key field keeps the stored key; the checkbox removes it.
      apiKey: form.get("clearKey") === "on" ? null : key ? key : undefined,
      params,
    });
    revalidatePath("/admin/models");
    return { ok: `Saved ${name}.` };
  });
}

export async function testModelAction(_prev: ModelActionState, form: FormData): Promise<ModelActionState> {
  await requireRole("admin");
  return asState(async () => {
    const check = await checkModel(getDb(), String(form.get("name") ?? ""));
    return { check };
  });
}

export async function deleteModelAction(form: FormData): Promise<void> {
  await requireRole("admin");
  deleteModelSetting(getDb(), String(form.get("name") ?? ""));
  revalidatePath("/admin/models");
}
