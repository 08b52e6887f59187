/**
 * The one CSV writer every export uses (campaign labels, agreement, experiment results).
 *
 * Cells are RFC 4180 (quoted when they hold a quote, comma or line break) and made safe to open in a
 * spreadsheet: a text cell beginning with `=`, `+`, `-`, `@`, a tab or a carriage return would be
 * read as a formula (CSV injection, e.g. `=HYPERLINK(...)` in an annotator's comment), so, as OWASP
 * recommends, it is prefixed with a single quote and quoted. Numbers are written as numbers: a
 * negative kappa stays `-0.12`, since a number cannot carry a formula.
 */

const FORMULA_START = /^[=+\-@\t\r]/;

/** One cell: empty for null/undefined, numbers and booleans as they are, text neutralised and quoted as needed. */
export function csvCell(v: unknown): string {
  if (v === null || v === undefined) return "";
  if (typeof v === "number" || typeof v === "bigint" || typeof v === "boolean") return String(v);
  const s = String(v);
  if (FORMULA_START.test(s)) return `"'${s.replace(/"/g, '""')}"`;
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** One line of cells (no line break). */
export function csvLine(cells: unknown[]): string {
  return cells.map(csvCell).join(",");
}

/** A header line of `columns`, then one line per row (the row's value for each column), ending with a newline. */
export function toCsv(rows: ReadonlyArray<Record<string, unknown>>, columns: string[]): string {
  return [csvLine(columns), ...rows.map((r) => csvLine(columns.map((c) => r[c])))].join("\n") + "\n";
}
