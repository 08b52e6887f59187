/** The shape of a paper table, whatever it is rendered to (LaTeX, Markdown, CSV, the page). */

export const PAPER_TABLE_IDS = [
  "mem-pal-table2",
  "mem-pal-table3",
  "mem-pal-table10",
  "hicupid-table3",
  "hicupid-table-a2",
  "locomo-categories",
  "longmemeval-types",
] as const;
export type PaperTableId = (typeof PAPER_TABLE_IDS)[number];

/** A value column; `rank`: best bold, second underlined among the run's rows. */
export type Column = { key: string; label: string; latex: string; digits: number; rank: boolean };
export type ColumnGroup = { label: string; latex: string; span: number };

export type Cell = {
  value: number | null;
  /** Sample sd over the runs (several runs only). */
  sd: number | null;
  /** Significant against the reference (the table's notes say which test). */
  sig: boolean;
  /** 1: best of the column, 2: second (run rows only). */
  rank: 1 | 2 | null;
  /** Decimals when not the column's (mean counts over runs, differences in percentage points). */
  digits?: number;
};

export type TableRow = {
  /** The model column (HiCUPID: one row group per assistant model). */
  model: string | null;
  /** The experiment's method key (label), or the paper's row for a published row. */
  method: string;
  /** The method as the paper names it, plain and for LaTeX. */
  name: string;
  latexName: string;
  runs: number | null;
  cells: Cell[];
};

/**
 * "reported": the paper's rows for the run's own model and setting, with the difference below them;
 * "reference": a paper's rows of another model or retriever, shown for reference only (no difference).
 */
export type SectionKind = "run" | "reported" | "difference" | "reference";
export type Section = { kind: SectionKind; label: string; rows: TableRow[] };

export type PaperTable = {
  id: PaperTableId;
  title: string;
  /** What the row names are (e.g. "Methods", "Ours vs Baseline"). */
  stub: string;
  withModel: boolean;
  groups: ColumnGroup[];
  columns: Column[];
  sections: Section[];
  /** The caption's sentences: runs, significance test, bold/underline, where the reported rows come from. */
  notes: string[];
};

/** One method's summary as experimentResults gives it: mean, sd and p (paired t-test vs the reference) per metric. */
export type SummaryLike = {
  method: string;
  task: string;
  runs: number;
  metrics: Record<string, { mean: number | null; sd: number | null; p: number | null }>;
};

/** The significance level of the marks (Mem-PAL reports p < 0.01). */
export const SIG_LEVEL = 0.01;
