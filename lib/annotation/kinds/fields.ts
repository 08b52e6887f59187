import { InvalidInputError } from "@/lib/errors";

/** Field readers for uploaded records: each error names the place (file:line) and the field. */
export function str(obj: Record<string, unknown>, field: string, where: string, opts: { optional?: boolean } = {}): string | undefined {
  const v = obj[field];
  if (v === undefined || v === null) {
    if (opts.optional) return undefined;
    throw new InvalidInputError(`${where}: field "${field}" is missing`);
  }
  if (typeof v === "number") return String(v);
  if (typeof v !== "string" || v.trim() === "") throw new InvalidInputError(`${where}: field "${field}" must be a non-empty string`);
  return v;
}

export type Turn = { role: "user" | "assistant"; content: string };

/** An output: a string, or a dialogue as [{role: "user"|"assistant", content}]. */
export function output(v: unknown, field: string, where: string): string | Turn[] {
  if (typeof v === "string" && v.trim() !== "") return v;
  if (Array.isArray(v) && v.length > 0) {
    return v.map((t, i) => {
      const o = t as Record<string, unknown>;
      if (typeof o !== "object" || o === null || (o.role !== "user" && o.role !== "assistant") || typeof o.content !== "string") {
        throw new InvalidInputError(`${where}: ${field}[${i}] must be {"role": "user"|"assistant", "content": string}`);
      }
      return { role: o.role, content: o.content };
    });
  }
  throw new InvalidInputError(`${where}: field "${field}" must be a non-empty string or a list of turns`);
}

/** A text or a plain object (user info, metadata), kept as given. */
export function info(obj: Record<string, unknown>, field: string, where: string, opts: { optional?: boolean } = {}): unknown {
  const v = obj[field];
  if (v === undefined || v === null) {
    if (opts.optional) return undefined;
    throw new InvalidInputError(`${where}: field "${field}" is missing`);
  }
  if (typeof v === "string" || (typeof v === "object" && !Array.isArray(v))) return v;
  if (Array.isArray(v) && v.every((x) => typeof x === "string")) return v;
  throw new InvalidInputError(`${where}: field "${field}" must be a string, a list of strings or an object`);
}

export function side(obj: Record<string, unknown>, field: string, where: string): { system: string; output: string | Turn[] } {
  const v = obj[field];
  if (typeof v !== "object" || v === null || Array.isArray(v)) {
    throw new InvalidInputError(`${where}: field "${field}" must be an object {"system", "output"}`);
  }
  const o = v as Record<string, unknown>;
  return { system: str(o, "system", `${where}: ${field}`)!, output: output(o.output, `${field}.output`, where) };
}
