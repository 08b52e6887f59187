/**
 * The Admin → Methods forms (external methods, lib/assistants/external): their fields read with zod,
 * the work done by the store and the check. Names a built-in method or a HiCUPID context setting uses
 * are refused (they would shadow it in configs).
 */
import { z } from "zod";
import type { Db } from "@/db/client";
import { ASSISTANTS } from "@/lib/assistants/registry";
import { checkMethod, type CheckReport } from "@/lib/assistants/external/check";
import { addExternalMethod, findExternalMethod, parseHeader, removeExternalMethod } from "@/lib/assistants/external/store";
import { resetExternalMethod, type ResetReport } from "@/lib/assistants/external/reset";
import { NotFoundError } from "@/lib/errors";
import { formText, parseForm } from "@/lib/http/form";
import { CONTEXT_SETTINGS } from "@/lib/tasks/hicupid/settings";

/** Names an external method may not take. */
export const reservedMethodNames = (): string[] => [...ASSISTANTS.map((a) => a.id), ...Object.keys(CONTEXT_SETTINGS)];

const addForm = z.object({
  name: formText(40),
  label: formText(80),
  url: formText(2000),
  headers: formText(20_000),
  timeout: formText(10),
});

export function addMethodForm(db: Db, form: FormData): { ok: string } {
  const f = parseForm(addForm, form);
  const headers = Object.fromEntries(
    f.headers
      .split(/\r?\n/)
      .map((l) => l.trim())
      .filter(Boolean)
      .map(parseHeader),
  );
  const m = addExternalMethod(
    db,
    {
      name: f.name.trim(),
      label: f.label.trim() || undefined,
      url: f.url.trim(),
      headers,
      timeoutMs: f.timeout.trim() ? Number(f.timeout) : undefined,
    },
    reservedMethodNames(),
  );
  return { ok: `Registered ${m.name}.` };
}

const nameForm = z.object({ name: z.string({ error: "expected the method's name" }).max(40) });

export function removeMethodForm(db: Db, form: FormData): { ok: string } {
  const { name } = parseForm(nameForm, form);
  removeExternalMethod(db, name);
  return { ok: `Removed ${name}.` };
}

export async function checkMethodForm(db: Db, form: FormData): Promise<{ report: CheckReport }> {
  const { name } = parseForm(nameForm, form);
  const m = findExternalMethod(db, name);
  if (!m) throw new NotFoundError(`no external method named "${name}"`);
  return { report: await checkMethod(m) };
}

const resetForm = z.object({
  name: z.string({ error: "expected the method's name" }).max(40),
  user: formText(200),
});

/** Admin → Methods "Reset memory": one user's memory (the field given) or every user's. */
export async function resetMethodForm(db: Db, form: FormData): Promise<{ reset: ResetReport }> {
  const f = parseForm(resetForm, form);
  return { reset: await resetExternalMethod(db, f.name, f.user.trim() || undefined) };
}
