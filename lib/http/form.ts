/**
 * Server-action form input, validated at the action boundary: a form's fields are read as strings
 * and checked with zod, so a tampered or stale form (`status=bogus`, `id=abc`) is a 400 naming the
 * field before anything in lib/ runs, and an id that parses but does not exist is lib's 404.
 */
import { z } from "zod";
import { InvalidInputError } from "@/lib/errors";

/** A form field holding a record id: a positive whole number. */
export const formId = (what: string) =>
  z
    .string({ error: `expected the ${what} id` })
    .regex(/^\d{1,15}$/, `expected the ${what} id as a positive whole number`)
    .transform(Number)
    .refine((n) => n > 0, `expected the ${what} id as a positive whole number`);

/** An optional text field: absent reads as "". */
export const formText = (max: number) => z.string().max(max, `at most ${max} characters`).default("");

/** A checkbox or a hidden true/false field. */
export const formBool = z
  .enum(["true", "false", "on", "off"], { error: "expected true or false" })
  .transform((v) => v === "true" || v === "on");

/**
 * The form's fields (files and repeated names are not accepted: no action here takes them) validated
 * against `schema`; the first problem is an InvalidInputError "field: reason".
 */
export function parseForm<S extends z.ZodType>(schema: S, form: FormData): z.output<S> {
  const fields: Record<string, string> = {};
  for (const [k, v] of form.entries()) {
    // Next adds its own $ACTION_* fields to no-JavaScript posts; they are not the form's input.
    if (/^(\d+_)?\$ACTION/.test(k)) continue;
    if (typeof v !== "string") throw new InvalidInputError(`${k}: a file was sent where a text field was expected`);
    if (k in fields) throw new InvalidInputError(`${k}: sent more than once`);
    fields[k] = v;
  }
  const r = schema.safeParse(fields);
  if (!r.success) {
    const i = r.error.issues[0];
    throw new InvalidInputError(`${i.path.join(".") || "form"}: ${i.message}`);
  }
  return r.data;
}
