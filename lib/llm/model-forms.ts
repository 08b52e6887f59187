/** Admin → Models server-action forms, validated at the boundary (lib/http/form.ts). */
import { z } from "zod";
import type { Db } from "@/db/client";
import { InvalidInputError, NotFoundError } from "@/lib/errors";
import { formBool, formText, parseForm } from "@/lib/http/form";
import { checkModel, type ModelCheck } from "./check";
import { deleteModelSetting, listModelConfigs, roleOf, saveModelSetting } from "./config";

/** A role (assistant, judge, ...) or a named judge (judge:<name>); roleOf says what is wrong with a bad one. */
const configName = z
  .string({ error: "expected a model configuration name" })
  .trim()
  .min(1, "expected a model configuration name")
  .max(60, "at most 60 characters");

function parseParams(name: string, raw: string): Record<string, unknown> | null {
  if (!raw.trim()) return null;
  let v: unknown;
  try {
    v = JSON.parse(raw);
  } catch {
    throw new InvalidInputError(`${name}: parameters: not valid JSON`);
  }
  if (!v || typeof v !== "object" || Array.isArray(v)) throw new InvalidInputError(`${name}: parameters: expected a JSON object`);
  return v as Record<string, unknown>;
}

const saveFields = z.object({
  name: configName,
  baseUrl: formText(2000),
  model: formText(200),
  apiKey: formText(4000),
  params: formText(20_000),
  clearKey: formBool.optional(),
});

export function saveModelForm(db: Db, form: FormData): { ok: string } {
  const f = parseForm(saveFields, form);
  roleOf(f.name);
  saveModelSetting(db, {
    name: f.name,
    baseUrl: f.baseUrl,
    model: f.model,
    // An empty key field keeps the stored key; the checkbox removes it.
    apiKey: f.clearKey ? null : f.apiKey ? f.apiKey : undefined,
    params: parseParams(f.name, f.params),
  });
  return { ok: `Saved ${f.name}.` };
}

/** The role or judge named by the form; an unknown name (not a role, no saved judge) is a 404. */
function knownName(db: Db, form: FormData): string {
  const { name } = parseForm(z.object({ name: configName }), form);
  roleOf(name);
  if (!listModelConfigs(db).some((c) => c.name === name)) throw new NotFoundError(`no model configuration "${name}"`);
  return name;
}

export async function testModelForm(db: Db, form: FormData): Promise<{ check: ModelCheck }> {
  return { check: await checkModel(db, knownName(db, form)) };
}

/** Removes a saved override; a name with nothing saved is a 404. */
export function deleteModelForm(db: Db, form: FormData): { ok: string } {
  const { name } = parseForm(z.object({ name: configName }), form);
  roleOf(name);
  deleteModelSetting(db, name);
  return { ok: `Removed ${name}.` };
}
