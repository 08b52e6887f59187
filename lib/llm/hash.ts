import crypto from "node:crypto";

/** JSON with object keys sorted at every level, so equal values always hash alike. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_k, v) =>
    v && typeof v === "object" && !Array.isArray(v)
      ? Object.fromEntries(
          Object.entries(v as Record<string, unknown>)
            .filter(([, x]) => x !== undefined)
            .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
        )
      : v,
  );
}

export function sha256(text: string): string {
  return crypto.createHash("sha256").update(text).digest("hex");
}

export const hashOf = (value: unknown): string => sha256(canonicalJson(value));
