/** Admin → Models server-action forms, validated at the boundary (lib/http/form.ts). */
import { z } from "zod";
import { eq } from "drizzle-orm";
import { JSON_MODES, modelSettings } from "@/db/schema";
import type { Db } from "@/db/client";
import { InvalidInputError, NotFoundError } from "@/lib/errors";
import { formBool, formText, parseForm } from "@/lib/http/form";
import { checkModel, type ModelCheck } from "./check";
import { deleteModelSetting, listModelConfigs, roleOf, saveModelSetting } from "./config";
import { deleteEndpoint, endpointIdByName, saveEndpoint } from "./endpoints";

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
  /** The defined endpoint to point at; "" points at none. Absent (an older form): unchanged. */
  endpoint: z.string().max(60, "at most 60 characters").optional(),
});

export function saveModelForm(db: Db, form: FormData): { ok: string } {
  const f = parseForm(saveFields, form);
  roleOf(f.name);
  const chosen = f.endpoint === undefined ? undefined : f.endpoint.trim() ? endpointIdByName(db, f.endpoint.trim()) : null;
  const current = db.select({ id: modelSettings.endpointId }).from(modelSettings).where(eq(modelSettings.name, f.name)).get()?.id ?? null;
  let endpointId = chosen;
  let baseUrl = f.baseUrl;
  // The row's own URL and an endpoint exclude each other. A URL typed while the endpoint was left as it
  // was means "use this URL": the endpoint is let go. Choosing an endpoint replaces the row's own URL.
  if (chosen != null && chosen === current && baseUrl.trim()) endpointId = null;
  else if (chosen != null) baseUrl = "";
  saveModelSetting(db, {
    name: f.name,
    baseUrl,
    model: f.model,
    // An empty key field keeps the stored key; the checkbox removes it.
    apiKey: f.clearKey ? null : f.apiKey ? f.apiKey : undefined,
    params: parseParams(f.name, f.params),
    endpointId,
  });
  return { ok: `Saved ${f.name}.` };
}

/** An optional whole number field: "" is none; anything else must be a whole number (the range is checked by saveEndpoint). */
const formCount = (label: string) =>
  z
    .string()
    .trim()
    .max(12, `${label}: at most 12 digits`)
    .regex(/^\d*$/, `${label}: expected a whole number`)
    .default("")
    .transform((v) => (v === "" ? null : Number(v)));

const endpointFields = z.object({
  name: z.string({ error: "expected an endpoint name" }).trim().min(1, "expected an endpoint name").max(60, "at most 60 characters"),
  baseUrl: z.string({ error: "expected a base URL" }).trim().min(1, "expected a base URL").max(2000, "at most 2000 characters"),
  apiKey: formText(4000),
  clearKey: formBool.optional(),
  models: formText(4000),
  concurrency: formCount("in flight"),
  rpm: formCount("requests/min"),
  tpm: formCount("tokens/min"),
  timeoutMs: formCount("timeout (ms)"),
  jsonMode: z.enum(JSON_MODES, { error: `JSON mode: expected one of ${JSON_MODES.join(", ")}` }).default("off"),
  /** A checkbox: absent when unticked, so absent means "not marked". */
  batchApi: formBool.optional(),
});

/** Defines (or updates, by name) an endpoint; an empty key field keeps the stored key. */
export function saveEndpointForm(db: Db, form: FormData): { ok: string } {
  const f = parseForm(endpointFields, form);
  saveEndpoint(db, {
    name: f.name,
    baseUrl: f.baseUrl,
    apiKey: f.clearKey ? null : f.apiKey ? f.apiKey : undefined,
    models: f.models
      .split(/[\s,]+/)
      .map((m) => m.trim())
      .filter(Boolean),
    concurrency: f.concurrency,
    rpm: f.rpm,
    tpm: f.tpm,
    timeoutMs: f.timeoutMs,
    jsonMode: f.jsonMode,
    batchApi: f.batchApi ?? false,
  });
  return { ok: `Saved endpoint ${f.name}.` };
}

export function deleteEndpointForm(db: Db, form: FormData): { ok: string } {
  const { name } = parseForm(z.object({ name: z.string().trim().min(1, "expected an endpoint name").max(60) }), form);
  deleteEndpoint(db, name);
  return { ok: `Removed endpoint ${name}.` };
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
