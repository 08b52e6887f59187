/**
 * "This run only" (issue 44.6): the tables without the papers' rows, the differences and the notes about
 * them, as a paper's own results table is written (they had to be deleted by hand from the LaTeX).
 */
import type { PaperTable } from "./types";

/** Notes about the published rows and their differences: they go with those rows. */
const ABOUT_PUBLISHED = /Reported rows|reported rows|For reference only|shown for reference|the difference|no difference taken/;

export function runOnlyTables(tables: readonly PaperTable[]): PaperTable[] {
  return tables.map((t) => ({
    ...t,
    sections: t.sections.filter((s) => s.kind === "run"),
    notes: t.notes.filter((n) => !ABOUT_PUBLISHED.test(n)),
  }));
}
