/**
 * Any stored JSON value as labelled text fields, so pages and exports show people words, not braces:
 * nested objects become "Parent › Child" labels, lists of strings one line each, lists of objects
 * numbered. Used for the user's information, a job's input and non-dialogue outputs.
 */
export type Field = { label: string; text: string };
export type InfoCard = { title: string; fields: Field[] };

/** "health status" / "implicitNeeds" / "selected_solutions" → "Health status" / "Implicit needs" / "Selected solutions". */
export function humanize(key: string): string {
  const s = key
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/[_-]+/g, " ")
    .trim()
    .toLowerCase();
  return s ? s[0].toUpperCase() + s.slice(1) : key;
}

const scalar = (v: unknown) => v === null || ["string", "number", "boolean"].includes(typeof v);
const text = (v: unknown) => (v === null ? "—" : typeof v === "number" ? String(Number(v.toFixed(4))) : String(v));

export function readableFields(value: unknown, label = ""): Field[] {
  if (value === undefined) return [];
  if (scalar(value)) {
    const t = text(value);
    return t === "" ? [] : [{ label: label || "Value", text: t }];
  }
  if (Array.isArray(value)) {
    if (!value.length) return [];
    if (value.every(scalar)) return [{ label: label || "Values", text: value.map(text).join("\n") }];
    return value.flatMap((v, i) => readableFields(v, `${label || "Item"} ${i + 1}`));
  }
  return Object.entries(value as Record<string, unknown>).flatMap(([k, v]) =>
    readableFields(v, label ? `${label} › ${humanize(k)}` : humanize(k)),
  );
}
