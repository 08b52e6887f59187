/**
 * The papers' appendix tables a run can be set beside: Mem-PAL Table 10 (G-Score and S-Score with
 * DeepSeek-V3.1 and bge-base-zh) and HiCUPID Table A2 (retrieval hit rates). The published rows are
 * compared with the run's (a difference taken) only when the run's record says it used the paper's model
 * (Table 10) or retriever (Table A2's Contriever rows); otherwise they are shown as reference, so that no
 * other model's rows read as the paper's.
 */
import { methodKey, type MethodSpec } from "../config";
import { HICUPID_A2_COLUMNS, HICUPID_A2_GROUPS, MEM_PAL_T10_COLUMNS, MEM_PAL_T10_GROUPS } from "./columns";
import { latexEscape } from "./names";
import { cell, memPalRunRows, namesModel, rankRows, referenceSection, reportedAndDiff, row, runsNote, type TableInput } from "./parts";
import { a2Key, PUBLISHED } from "./published";
import type { PaperTable, Section, TableRow } from "./types";

const TABLE10_MODEL = "DeepSeek-V3.1";
const TABLE10_RETRIEVER = "bge-base-zh";

/** Mem-PAL Table 10; null when none of the run's methods has a row in it (or the run has neither task). */
export function memPalTable10(input: TableInput): PaperTable | null {
  const columns = MEM_PAL_T10_COLUMNS;
  const table = PUBLISHED.memPalTable10;
  const rr = memPalRunRows(input, columns);
  if (!rr || !rr.runRows.some((x) => table.rows.some((p) => p.method === x.paperRow))) return null;
  const { runRows, maxRuns, refName } = rr;
  rankRows(
    runRows.map((x) => x.r),
    columns,
  );
  const model = input.model ?? "unknown";
  const matched = namesModel(input.model, TABLE10_MODEL);
  const pick = (m: string) => table.rows.find((p) => p.method === m);
  const sections: Section[] = [
    { kind: "run", label: `This run (${model})`, rows: runRows.map((x) => x.r) },
    ...(matched
      ? reportedAndDiff(runRows, table, pick)
      : referenceSection(
          runRows,
          pick,
          `For reference only: ${table.source}, ${TABLE10_MODEL} (not this run's model; no difference taken)`,
        )),
  ];
  const retrieverNote =
    matched && input.embeddingModel && !namesModel(input.embeddingModel, TABLE10_RETRIEVER)
      ? [`This run's retriever is ${input.embeddingModel}, not Table 10's ${TABLE10_RETRIEVER}: the difference mixes in the retriever.`]
      : [];
  return {
    id: "mem-pal-table10",
    title: `Mem-PAL Table 10: requirement restatement and solution proposal with ${TABLE10_MODEL} (supplement)`,
    stub: "Methods",
    withModel: false,
    groups: MEM_PAL_T10_GROUPS,
    columns,
    sections,
    notes: [
      `${runsNote(maxRuns)} G-Score and S-Score as in Table 2 (0-100 and -100 to 100).`,
      "Bold: the best of this run's methods per column; underlined: the second.",
      maxRuns > 1
        ? `†: p < 0.01 against ${refName} (two-sided paired t-test over the runs).`
        : `No significance mark: the paired t-test against ${refName} needs at least 2 runs.`,
      matched
        ? `Reported rows: ${table.source} (${table.setup}); this run's assistant (${model}) is Table 10's model.`
        : `${table.source}'s rows (${table.setup}) are shown for reference only: this run's assistant is ${model}, not ${TABLE10_MODEL}. Table 2 compares the run with Qwen-Max-0428's rows.`,
      ...retrieverNote,
    ],
  };
}

/** A retrieving HiCUPID method's setting in Table A2's terms; null for a method that does not retrieve. */
function a2Setting(m: Pick<MethodSpec, "name" | "options">): { retriever: "BM25" | "Contriever"; unit: string; k: number } | null {
  const o = m.options as { retriever?: string; k?: number };
  const unit = m.name === "rag-dialogue" ? "dialogue" : m.name === "rag-utterance" ? "utterance" : null;
  if (!unit) return null;
  return { retriever: (o.retriever ?? "bm25") === "dense" ? "Contriever" : "BM25", unit, k: o.k ?? (unit === "dialogue" ? 1 : 5) };
}

/** HiCUPID Table A2 for the run's retrieving methods; null when none has a hit rate. */
export function hicupidTableA2(input: TableInput): PaperTable | null {
  const summary = input.summary.filter((s) => s.task === "hicupid" && typeof s.metrics.hitRate?.mean === "number");
  const columns = HICUPID_A2_COLUMNS;
  const table = PUBLISHED.hicupidTableA2;
  const contriever = namesModel(input.embeddingModel, "contriever");
  let maxRuns = 0;
  const runRows: Array<{ r: TableRow; paperRow: string | null; dense: boolean }> = [];
  for (const m of input.methods) {
    const key = methodKey(m);
    const s = summary.find((x) => x.method === key);
    const set = a2Setting(m);
    if (!s || !set) continue;
    maxRuns = Math.max(maxRuns, s.runs);
    const shown = set.retriever === "Contriever" && !contriever ? "Dense" : set.retriever;
    const name = `${shown}, ${set.unit}, k = ${set.k}`;
    const cells = columns.map((c) => cell(s.metrics[c.key]?.mean ?? null, s.runs > 1 ? (s.metrics[c.key]?.sd ?? null) : null));
    const paper = a2Key(set.retriever, set.unit, set.k);
    runRows.push({
      r: row(key, { name, latex: latexEscape(name), row: paper }, cells, s.runs),
      paperRow: paper,
      dense: set.retriever === "Contriever",
    });
  }
  if (!runRows.length) return null;
  // Two methods with one retrieval setting (a 0-shot and a 3-shot prompt) are told apart by their keys.
  for (const x of runRows)
    if (runRows.some((y) => y !== x && y.r.name === x.r.name)) {
      x.r.name = `${x.r.name} [${x.r.method}]`;
      x.r.latexName = latexEscape(x.r.name);
    }
  rankRows(
    runRows.map((x) => x.r),
    columns,
  );
  const pick = (m: string) => table.rows.find((p) => p.method === m);
  // BM25 needs no model; the dense rows are the paper's only when the run's encoder is Contriever.
  const compared = runRows.filter((x) => !x.dense || contriever);
  const other = runRows.filter((x) => x.dense && !contriever);
  const encoder = input.embeddingModel ?? "unknown";
  const sections: Section[] = [
    { kind: "run", label: "This run", rows: runRows.map((x) => x.r) },
    ...reportedAndDiff(compared, table, pick),
    ...referenceSection(
      other,
      pick,
      `For reference only: ${table.source}, Contriever (this run's dense encoder is ${encoder}; no difference taken)`,
    ),
  ];
  // The paper's rows are named by the paper's setting (its Contriever, not the run's encoder).
  for (const sec of sections)
    if (sec.kind !== "run" && sec.kind !== "difference")
      for (const r of sec.rows) {
        r.name = r.method;
        r.latexName = latexEscape(r.method);
      }
  const splits = input.splits ?? [];
  return {
    id: "hicupid-table-a2",
    title: "HiCUPID Table A2: retrieval performance (hit rate, %)",
    stub: "Retrieval",
    withModel: false,
    groups: HICUPID_A2_GROUPS,
    columns,
    sections,
    notes: [
      `${runsNote(maxRuns)} The share of questions whose associated dialogue is among the retrieved units (× 100). Multi-Info: the persona dialogue and any of the profile dialogues, counted separately. Total = persona × 25/40 + schedule × 10/40 + (multi-info persona + profile) / 2 × 5/40.`,
      "Bold: the best of this run's rows per column; underlined: the second.",
      `Reported rows: ${table.source} (${table.setup}); this run: ${splits.length ? splits.join(" and ") : "its test split"}.`,
      ...(other.length
        ? [
            `Dense rows: this run's encoder is ${encoder}, not the paper's Contriever, so Table A2's Contriever rows are shown for reference only.`,
          ]
        : []),
    ],
  };
}
