/**
 * What every paper table's builder shares: the input (an experiment's summaries and what its run record
 * says), a cell and a row, ranking, and the published rows with their differences beside the run's.
 */
import { methodKey, type MethodSpec } from "../config";
import type { PairRow } from "./wtl";
import { memPalName, type PaperName } from "./names";
import type { PublishedRow, PublishedTable } from "./published";
import { SIG_LEVEL, type Cell, type Column, type Section, type SummaryLike, type TableRow } from "./types";

export type TableInput = {
  methods: ReadonlyArray<Pick<MethodSpec, "name" | "label" | "options">>;
  reference: string;
  summary: readonly SummaryLike[];
  pairwise: readonly PairRow[];
  /** The assistant model of the run (HiCUPID's Model column); null when unknown. */
  model: string | null;
  /** The embedding model of the run's dense retriever (from its record); null when unknown or unused. */
  embeddingModel?: string | null;
  /** HiCUPID: the splits run (test_2 alone reads Table 4) and the judge configs (S_GPT, S_Llama). */
  splits?: readonly string[];
  judges?: readonly string[];
  /** HiCUPID: the paper's model to compare with; default the run's model when the paper has it, else Llama-3.1-8B. */
  paperModel?: string | null;
  /** Topics per run of each task (the most any method answered in one run): the n beside a paper's. */
  topics?: Readonly<Record<string, number>>;
  /** Users the run covered; null when unknown. One user is a smoke run, not a reproduction (issue 44.4). */
  users?: number | null;
  /** A tie margin applied to the W/T/L after the run (tie-margin calibration); null: as judged. */
  tieMargin?: { margin: number; source: string | null } | null;
};

export const cell = (value: number | null, sd: number | null = null, sig = false, digits?: number): Cell => ({
  value,
  sd,
  sig,
  rank: null,
  ...(digits === undefined ? {} : { digits }),
});

/**
 * A run's metric as a cell: its mean, its sd when the run has more than one, and † when it differs from
 * the reference method's significantly (never on the reference's own row).
 */
export function metricCell(x: SummaryLike["metrics"][string] | undefined, runs: number, isReference: boolean): Cell {
  return cell(x?.mean ?? null, runs > 1 ? (x?.sd ?? null) : null, !isReference && typeof x?.p === "number" && x.p < SIG_LEVEL);
}

/** Best (1) and second (2) per ranked column, by the value as printed, so a tie on paper is a tie here. */
export function rankRows(rows: TableRow[], columns: readonly Column[]): void {
  columns.forEach((c, i) => {
    if (!c.rank) return;
    const shown = (x: Cell) => (x.value === null ? null : Number(x.value.toFixed(x.digits ?? c.digits)));
    const distinct = [...new Set(rows.map((r) => shown(r.cells[i])).filter((v): v is number => v !== null))].sort((a, b) => b - a);
    for (const r of rows) {
      const v = shown(r.cells[i]);
      r.cells[i].rank = v === null ? null : v === distinct[0] ? 1 : v === distinct[1] ? 2 : null;
    }
  });
}

export const row = (method: string, n: PaperName, cells: Cell[], runs: number | null, model: string | null = null): TableRow => ({
  model,
  method,
  name: n.name,
  latexName: n.latex,
  runs,
  cells,
});

/** The reported rows for the run's rows (each once, in the run's order) and run − reported for each run row that has one. */
export function reportedAndDiff(
  runRows: Array<{ r: TableRow; paperRow: string | null }>,
  table: PublishedTable,
  pick: (paperRow: string) => PublishedRow | undefined,
  diff: (run: Cell, published: number, i: number, p: PublishedRow) => Cell = (run, v) => cell(run.value === null ? null : run.value - v),
): Section[] {
  const reported: TableRow[] = [];
  const differences: TableRow[] = [];
  for (const { r, paperRow } of runRows) {
    const p = paperRow ? pick(paperRow) : undefined;
    if (!p) continue;
    if (!reported.some((x) => x.method === p.method && x.model === (p.model ?? r.model))) {
      reported.push({ ...r, method: p.method, model: p.model ?? r.model, runs: null, cells: p.values.map((v) => cell(v)) });
    }
    differences.push({ ...r, runs: null, cells: r.cells.map((c, i) => diff(c, p.values[i], i, p)) });
  }
  const sections: Section[] = [];
  if (reported.length) sections.push({ kind: "reported", label: `Reported in ${table.source}`, rows: reported });
  if (differences.length) sections.push({ kind: "difference", label: `Difference (this run − ${table.source})`, rows: differences });
  return sections;
}

export const runsNote = (runs: number) => (runs > 1 ? `Mean ± sd over ${runs} runs.` : "One run (no sd).");

/**
 * A paper's rows for the run's rows when the run used another model or retriever: shown for reference
 * only (each once, in the run's order), never differenced against, so nothing reads as the paper's result.
 */
export function referenceSection(
  runRows: Array<{ r: TableRow; paperRow: string | null }>,
  pick: (paperRow: string) => PublishedRow | undefined,
  label: string,
): Section[] {
  const rows: TableRow[] = [];
  for (const { r, paperRow } of runRows) {
    const p = paperRow ? pick(paperRow) : undefined;
    if (p && !rows.some((x) => x.method === p.method))
      rows.push({ ...r, method: p.method, runs: null, cells: p.values.map((v) => cell(v)) });
  }
  return rows.length ? [{ kind: "reference", label, rows }] : [];
}

/** Whether a model name names the given one (case, dashes and dots aside): "deepseek-ai/DeepSeek-V3.1" names DeepSeek-V3.1. */
export function namesModel(model: string | null | undefined, wanted: string): boolean {
  const norm = (s: string) => s.toLowerCase().replace(/[^a-z0-9]/g, "");
  return !!model && norm(model).includes(norm(wanted));
}

/**
 * The run's rows of a Mem-PAL single-turn table (Tables 2 and 10; columns "task.metric"): mean ± sd, †
 * against the reference; null when the experiment ran neither task.
 */
export function memPalRunRows(
  input: TableInput,
  columns: readonly Column[],
): { runRows: Array<{ r: TableRow; paperRow: string | null }>; maxRuns: number; refName: string } | null {
  const tasks = new Set(columns.map((c) => c.key.split(".")[0]));
  const rows = input.summary.filter((s) => tasks.has(s.task));
  if (!rows.length) return null;
  const refSpec = input.methods.find((m) => methodKey(m) === input.reference);
  const refName = refSpec ? memPalName(refSpec).name : input.reference;
  let maxRuns = 0;
  const runRows = input.methods
    .filter((m) => rows.some((s) => s.method === methodKey(m)))
    .map((m) => {
      const key = methodKey(m);
      const n = memPalName(m);
      const mine = rows.filter((s) => s.method === key);
      const runs = Math.max(...mine.map((s) => s.runs));
      maxRuns = Math.max(maxRuns, runs);
      const cells = columns.map((c) => {
        const [task, metric] = c.key.split(".");
        const s = mine.find((x) => x.task === task);
        return metricCell(s?.metrics[metric], s?.runs ?? 0, key === input.reference);
      });
      return { r: row(key, n, cells, runs), paperRow: n.row };
    });
  return { runRows, maxRuns, refName };
}
