/**
 * The `response_format` a chat call sends for an endpoint's JSON mode. "json_schema" turns the call's
 * zod schema into a JSON Schema (zod's own z.toJSONSchema), so an endpoint with structured outputs
 * (OpenAI, vLLM's guided decoding, llama.cpp's grammars) can only answer in the shape we then validate anyway.
 *
 * The schema is draft-07 in the subset the real servers accept (docs/endpoints.md, "Local models"): no
 * `prefixItems` or `items: false` (llama-server refuses them; a tuple is an array with its length as
 * minItems/maxItems), unions of constants as one `enum`, no `propertyNames`. A pipe is sent as what it ends in
 * when that is representable (an enum behind a trim/lowercase transform is sent as the enum), and a schema may
 * carry an explicit JSON Schema (`sendAs`) where zod's own says less than the model must know (a record whose
 * keys are known, a refined value whose allowed values are known).
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

/** Explicit JSON Schemas, set by `sendAs`. */
const explicit = new WeakMap<z.ZodType<unknown>, JsonSchema>();

/**
 * Sends `schema` as `jsonSchema` (what the model is asked to write) instead of zod's own conversion; the
 * reply is still validated by `schema`. For what zod cannot say: a record's known keys, a refine's allowed values.
 */
export function sendAs<S extends z.ZodType<unknown>>(schema: S, jsonSchema: JsonSchema): S {
  explicit.set(schema, jsonSchema);
  return schema;
}

type ZodDef = { type: string; in?: z.ZodType<unknown>; out?: z.ZodType<unknown> };
const defOf = (s: unknown) => (s as { _zod: { def: ZodDef } })._zod.def;

function replaceContents(target: JsonSchema, source: JsonSchema) {
  for (const k of Object.keys(target)) delete target[k];
  Object.assign(target, structuredClone(source));
}

/** zod's draft-07 conversion of the input side, with the explicit schemas and the pipe rule applied. */
function toDraft7(schema: z.ZodType<unknown>): JsonSchema {
  const { $schema: _drop, ...js } = z.toJSONSchema(schema, {
    target: "draft-7",
    io: "input",
    unrepresentable: "any",
    override: ({ zodSchema, jsonSchema }) => {
      const given = explicit.get(zodSchema as unknown as z.ZodType<unknown>);
      if (given) return replaceContents(jsonSchema as JsonSchema, given);
      const def = defOf(zodSchema);
      // string → trim/lowercase → enum: the model is asked for the enum. A pipe out of a transform is zod's
      // preprocess, which zod already sends as its target; a pipe into a transform has no shape to send.
      if (def.type === "pipe" && def.in && def.out && defOf(def.in).type !== "transform" && defOf(def.out).type !== "transform")
        replaceContents(jsonSchema as JsonSchema, toDraft7(def.out));
    },
  }) as JsonSchema;
  void _drop;
  return js;
}

const sameJson = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * Rewrites what real servers refuse or ignore into what they enforce: a tuple (`items: [...]` or
 * `prefixItems`) becomes one item schema (the items' common schema, or anyOf the distinct ones) with the
 * tuple's length as minItems/maxItems; anyOf of constants becomes an enum; `propertyNames` goes.
 */
function portable(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(portable);
  if (!node || typeof node !== "object") return node;
  const o: JsonSchema = {};
  for (const [k, v] of Object.entries(node as JsonSchema)) {
    if (k === "propertyNames" || k === "additionalItems") continue;
    if (k === "enum" || k === "const" || k === "default") o[k] = v;
    else if (k === "properties" || k === "definitions" || k === "$defs")
      o[k] = Object.fromEntries(Object.entries(v as JsonSchema).map(([name, sub]) => [name, portable(sub)]));
    else o[k] = portable(v);
  }
  const tuple = Array.isArray(o.prefixItems) ? o.prefixItems : Array.isArray(o.items) ? o.items : null;
  if (tuple) {
    delete o.prefixItems;
    const distinct = (tuple as unknown[]).filter((x, i, all) => all.findIndex((y) => sameJson(x, y)) === i);
    o.items = distinct.length === 1 ? distinct[0] : { anyOf: distinct };
    o.minItems = Math.max(Number(o.minItems ?? 0), tuple.length);
    if (o.maxItems === undefined || (node as JsonSchema).items === false || (node as JsonSchema).additionalItems === false)
      o.maxItems = tuple.length;
  } else if (o.items === false) delete o.items;
  if (Array.isArray(o.anyOf) && o.anyOf.length > 0 && o.anyOf.every((x) => x && typeof x === "object" && "const" in x)) {
    const members = o.anyOf as JsonSchema[];
    const types = [...new Set(members.map((m) => m.type ?? (m.const === null ? "null" : typeof m.const)))];
    delete o.anyOf;
    if (types.length === 1 && ["string", "number", "integer", "boolean"].includes(String(types[0]))) o.type = types[0];
    o.enum = members.map((m) => m.const);
  }
  return o;
}

// Schemas are module constants: converted once each, not on every call.
const converted = new WeakMap<z.ZodType<unknown>, { schema: JsonSchema; strict: boolean }>();

/** The JSON Schema of what the model must write (the schema's input side: before any transform). */
export function jsonSchemaOf(schema: z.ZodType<unknown>): { schema: JsonSchema; strict: boolean } {
  let r = converted.get(schema);
  if (!r) {
    const js = portable(toDraft7(schema)) as JsonSchema;
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
