/**
 * The paper tables of an experiment (Mem-PAL Tables 2, 3 and 10, HiCUPID Tables 3 and A2) and their files: LaTeX,
 * Markdown, CSV. `pal table`, the experiment page's "Paper table" view and its downloads read this.
 */
import type { Db } from "@/db/client";
import { InvalidInputError } from "@/lib/errors";
import { parseExperimentConfig, referenceMethod, type ExperimentConfig } from "../config";
import { getExperimentRow } from "../control";
import { experimentResults, type ExperimentResults } from "../results";
import { mismatchText } from "../protocol-audit";
import { roleModel, runRecordOf, type RunRecord } from "../run-record";
import { deviationSettings } from "../presets";
import { datasetUserKeys } from "@/lib/datasets/user-keys";
import { buildPaperTables } from "./build";
import { runOnlyTables } from "./run-only";
import { paperTablesCsv } from "./csv";
import { paperTablesLatex } from "./latex";
import { paperTablesMarkdown } from "./markdown";
import { PAPER_TABLE_IDS, type PaperTable, type PaperTableId } from "./types";

export const PAPER_TABLE_FORMATS = ["latex", "markdown", "csv"] as const;
export type PaperTableFormat = (typeof PAPER_TABLE_FORMATS)[number];
/** `runOnly`: this run's rows alone, without the published rows and differences (issue 44.6). */
export type PaperTableOptions = { table?: string | null; paperModel?: string | null; runOnly?: boolean };

/** What the tables say about the run, from its record only (never today's settings): its assistant model and protocol. */
export type RunFacts = { model: string | null; embeddingModel?: string | null; notes: string[]; users?: number | null };

export function runFacts(record: RunRecord, users: number | null = null): RunFacts {
  const m = roleModel(record, "assistant");
  const notes: string[] = [];
  if (m.mixed) {
    const counts = record.roles
      .filter((r) => r.role === "assistant")
      .flatMap((r) => r.served)
      .map((s) => `${s.model}: ${s.calls}`)
      .join(", ");
    notes.push(`Mixed models: the endpoint's replies name several assistant models (${counts}); this run's rows are not one model's.`);
  } else if (m.asked && m.served.length === 1 && m.served[0] !== m.asked) {
    notes.push(`Model: asked for ${m.asked}, the endpoint's replies name ${m.served[0]}.`);
  }
  const preset = record.preset;
  const audit = record.audit;
  if (preset && audit && !audit.asDeclared) {
    notes.push(
      `Not labelled as the ${preset.label} preset: the protocol audit found what the run did not ask for (${audit.mismatches.map(mismatchText).join("; ")}).`,
    );
  } else if (preset) {
    const dev = deviationSettings(record.deviations);
    // A preset named "Reproduce ..." on one user is its protocol, not a reproduction (issue 44.4).
    notes.push(
      `Protocol: the ${preset.label} preset${dev.length ? ` with ${dev.length} deviation${dev.length > 1 ? "s" : ""} (${dev.join(", ")})` : ", no deviation"}${audit ? "; every call as declared" : ""}${users === 1 ? ", on one user: the protocol, not a reproduction of the paper's results" : ""}.`,
    );
  }
  // What makes the numbers not the paper's beyond the config (a bare dialogue simulator: issue 40 item 14).
  for (const w of audit?.warnings ?? []) notes.push(`Warning: ${w}.`);
  return { model: m.model, embeddingModel: roleModel(record, "embedding").model, notes, users };
}

/** The tables from results already computed (the page has them) and the experiment's config. */
export function paperTablesOf(
  res: Pick<ExperimentResults, "summary" | "pairwise" | "pairwiseTieMargin"> & Partial<Pick<ExperimentResults, "results">>,
  config: ExperimentConfig,
  run: RunFacts,
  opts: PaperTableOptions = {},
): PaperTable[] {
  if (opts.table && !(PAPER_TABLE_IDS as readonly string[]).includes(opts.table))
    throw new InvalidInputError(`table: "${opts.table}" is not one of ${PAPER_TABLE_IDS.join(", ")}`);
  const tables = buildPaperTables({
    methods: config.methods,
    reference: referenceMethod(config),
    summary: res.summary,
    pairwise: res.pairwise,
    model: run.model,
    embeddingModel: run.embeddingModel ?? null,
    splits: config.hicupid.splits,
    judges: config.hicupid.judges,
    paperModel: opts.paperModel ?? null,
    tieMargin: res.pairwiseTieMargin,
    topics: topicsPerTask(res.results ?? []),
    users: run.users ?? null,
  });
  for (const t of tables) t.notes.push(...run.notes);
  return opts.table ? tables.filter((t) => t.id === (opts.table as PaperTableId)) : tables;
}

/** Topics per run of each task: the most items any method answered in one replicate. */
function topicsPerTask(results: ReadonlyArray<{ task: string; items: number }>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const r of results) out[r.task] = Math.max(out[r.task] ?? 0, r.items);
  return out;
}

/** The users an experiment covered: its list, or every user of its data set (one indexed count). */
function usersOf(db: Db, config: ExperimentConfig, datasetId: number): number {
  return config.users === "all" ? datasetUserKeys(db, datasetId, 0).total : config.users.length;
}

export function experimentPaperTables(
  db: Db,
  id: number,
  opts: PaperTableOptions = {},
  res?: ExperimentResults,
): { name: string; tables: PaperTable[] } {
  const e = getExperimentRow(db, id);
  const config = parseExperimentConfig(e.config);
  const record = runRecordOf(db, id);
  const tables = paperTablesOf(res ?? experimentResults(db, id), config, runFacts(record, usersOf(db, config, record.dataset.id)), opts);
  return { name: e.name, tables };
}

export function isPaperTableFormat(s: string): s is PaperTableFormat {
  return (PAPER_TABLE_FORMATS as readonly string[]).includes(s);
}

/** One file of the experiment's paper tables. */
export function paperTableFile(
  db: Db,
  id: number,
  format: string,
  opts: PaperTableOptions = {},
): { body: string; contentType: string; filename: string } {
  if (!isPaperTableFormat(format)) throw new InvalidInputError(`format: "${format}" is not one of ${PAPER_TABLE_FORMATS.join(", ")}`);
  const { name, tables: all } = experimentPaperTables(db, id, opts);
  const tables = opts.runOnly ? runOnlyTables(all) : all;
  if (!tables.length)
    throw new InvalidInputError(`experiment ${id} has no paper table${opts.table ? ` ${opts.table}` : ""} (no results of its tasks yet)`);
  const source = `Experiment ${id} (${name.replace(/[\r\n]+/g, " ")})`;
  const base = `experiment-${id}-${opts.table ?? "paper-tables"}${opts.runOnly ? "-run-only" : ""}`;
  if (format === "latex")
    return { body: paperTablesLatex(tables, source), contentType: "application/x-tex; charset=utf-8", filename: `${base}.tex` };
  if (format === "markdown")
    return { body: paperTablesMarkdown(tables, source), contentType: "text/markdown; charset=utf-8", filename: `${base}.md` };
  return { body: paperTablesCsv(tables), contentType: "text/csv; charset=utf-8", filename: `${base}.csv` };
}

export type { PaperTable, PaperTableId } from "./types";
export { PAPER_TABLE_IDS } from "./types";
