/**
 * The `response_format` a chat call sends for an endpoint's JSON mode. "json_schema" turns the call's
 * zod schema into a JSON Schema (zod's own z.toJSONSchema), so an endpoint with structured outputs
 * (OpenAI, vLLM's guided decoding) can only answer in the shape we then validate anyway.
 */
import { z } from "zod";
import type { JsonMode } from "@/db/schema";

type JsonSchema = { [k: string]: unknown };

export type ResponseFormat =
  { type: "json_object" } | { type: "json_schema"; json_schema: { name: string; schema: JsonSchema; strict: boolean } };

/**
 * Objects closed to extra keys (the model has no reason to add any: zod drops them) and whether the
 * whole schema meets strict mode's rule that every object lists all its properties as required.
 */
function close(node: unknown): boolean {
  if (Array.isArray(node)) return node.map(close).every(Boolean);
  if (!node || typeof node !== "object") return true;
  const o = node as JsonSchema;
  let strict = true;
  if (o.type === "object") {
    if (o.additionalProperties === undefined) o.additionalProperties = false;
    const props = Object.keys((o.properties as JsonSchema | undefined) ?? {});
    const required = new Set((o.required as string[] | undefined) ?? []);
    // A record (open keys) or an optional field cannot be strict.
    if (o.additionalProperties !== false || props.some((p) => !required.has(p))) strict = false;
  }
  for (const [k, v] of Object.entries(o)) if (k !== "enum" && k !== "const" && k !== "default" && !close(v)) strict = false;
  return strict;
}

/** The schema's name as the API wants it: letters, digits, _ and -, at most 64. */
export function schemaName(purpose: string): string {
  return purpose.replace(/[^A-Za-z0-9_-]+/g, "_").slice(0, 64) || "reply";
}

// Schemas are module constants: converted once each, not on every call.
const converted = new WeakMap<z.ZodType<unknown>, { schema: JsonSchema; strict: boolean }>();

/** The JSON Schema of what the model must write (the schema's input side: before any transform). */
export function jsonSchemaOf(schema: z.ZodType<unknown>): { schema: JsonSchema; strict: boolean } {
  let r = converted.get(schema);
  if (!r) {
    const { $schema: _drop, ...js } = z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as JsonSchema;
    void _drop;
    r = { schema: js, strict: close(js) };
    converted.set(schema, r);
  }
  return r;
}

/** The response_format for `mode`, or undefined when the call asks for plain text. */
export function responseFormat(mode: JsonMode, schema: z.ZodType<unknown> | undefined, purpose: string): ResponseFormat | undefined {
  if (!schema || mode === "off") return undefined;
  if (mode === "json_object") return { type: "json_object" };
  let converted: ReturnType<typeof jsonSchemaOf>;
  try {
    converted = jsonSchemaOf(schema);
  } catch {
    // A schema zod cannot express as JSON Schema still gets JSON: the reply is validated either way.
    return { type: "json_object" };
  }
  return { type: "json_schema", json_schema: { name: schemaName(purpose), schema: converted.schema, strict: converted.strict } };
}
