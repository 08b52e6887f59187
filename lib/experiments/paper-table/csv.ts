/**
 * Paper tables as CSV with one header row: one line per cell (table, section, model, method, column,
 * value, sd, significance, rank), so a spreadsheet or pandas can pivot it back into any layout.
 */
import { csvLine } from "@/lib/csv";
import type { PaperTable } from "./types";

export const PAPER_CSV_HEADER = [
  "table",
  "section",
  "model",
  "method",
  "paper_name",
  "runs",
  "group",
  "column",
  "value",
  "sd",
  "significant",
  "rank",
];

export function paperTablesCsv(tables: readonly PaperTable[]): string {
  const lines = [csvLine(PAPER_CSV_HEADER)];
  for (const t of tables) {
    const groupOf: string[] = t.groups.flatMap((g) => Array(g.span).fill(g.label));
    for (const s of t.sections)
      for (const r of s.rows)
        r.cells.forEach((c, i) => {
          const col = t.columns[i];
          lines.push(
            csvLine([
              t.id,
              s.label,
              r.model ?? "",
              r.method,
              r.name,
              r.runs ?? "",
              groupOf[i] ?? "",
              col.label,
              c.value === null ? "" : Number(c.value.toFixed((c.digits ?? col.digits) + 2)),
              c.sd === null ? "" : Number(c.sd.toFixed((c.digits ?? col.digits) + 2)),
              c.sig ? "yes" : "",
              s.kind === "run" && c.rank ? c.rank : "",
            ]),
          );
        });
  }
  return lines.join("\n") + "\n";
}
