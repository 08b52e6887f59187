import crypto from "node:crypto";

/**
 * JSON with object keys sorted at every level, so equal values always hash alike. Cache keys are
 * hashes of it, so its output must never change: it is exactly what
 * `JSON.stringify(value, (k, v) => plain object ? Object.fromEntries(sorted defined entries) : v)` gave,
 * written out by hand (that replacer rebuilt every object and cost a tenth of a pipeline's CPU). Keys
 * sort by UTF-16 code units, except that array-index keys ("0", "12") come first in numeric order, as
 * a rebuilt object enumerates them; undefined, functions and symbols are left out of objects and are
 * null in arrays; toJSON is honoured.
 */
export function canonicalJson(value: unknown): string {
  return write(value, "") as string;
}

function write(value: unknown, key: string): string | undefined {
  let v = value;
  if (v !== null && typeof v === "object" && typeof (v as { toJSON?: unknown }).toJSON === "function")
    v = (v as { toJSON(k: string): unknown }).toJSON(key);
  switch (typeof v) {
    case "string":
      return JSON.stringify(v);
    case "number":
      return Number.isFinite(v) ? JSON.stringify(v) : "null";
    case "boolean":
      return v ? "true" : "false";
    case "object": {
      if (v === null) return "null";
      if (Array.isArray(v)) {
        let out = "[";
        for (let i = 0; i < v.length; i++) out += (i ? "," : "") + (write(v[i], String(i)) ?? "null");
        return out + "]";
      }
      const o = v as Record<string, unknown>;
      const keys = Object.keys(o).sort(byKeyOrder);
      let out = "{";
      let first = true;
      for (const k of keys) {
        const x = o[k];
        if (x === undefined) continue;
        const s = write(x, k);
        if (s === undefined) continue;
        out += (first ? "" : ",") + JSON.stringify(k) + ":" + s;
        first = false;
      }
      return out + "}";
    }
    case "bigint":
      return JSON.stringify(v); // throws, as before
    default:
      return undefined; // undefined, functions, symbols
  }
}

const isIndex = (k: string) => /^(?:0|[1-9]\d{0,9})$/.test(k) && Number(k) < 4294967295;

function byKeyOrder(a: string, b: string): number {
  const ia = isIndex(a);
  const ib = isIndex(b);
  if (ia || ib) return ia && ib ? Number(a) - Number(b) : ia ? -1 : 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

export function sha256(text: string): string {
  return crypto.createHash("sha256").update(text).digest("hex");
}

export const hashOf = (value: unknown): string => sha256(canonicalJson(value));

/**
 * The embedding cache's key of a text for one endpoint and model: hashOf({endpoint, model, text}).
 * Only texts not yet known by their text (lib/llm/cache.ts, vectorsByText) are hashed.
 */
export function vectorKeyOf(endpoint: string, model: string): (text: string) => string {
  return (text) => hashOf({ endpoint, model, text });
}
