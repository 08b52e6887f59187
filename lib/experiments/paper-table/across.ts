/**
 * A paper table across several experiments (issue 44.6), as Mem-PAL's Table 10 sets a second model's rows
 * beside Table 2's: one block of rows per experiment, each labelled by what differs between the
 * experiments (the assistant model, the retriever, the preset, the data set, the users), read from each
 * run's record (the ledger's served models), never today's settings. Each block is ranked on its own,
 * as each experiment's own table is; the published rows, when asked for, follow once, without differences.
 */
import type { Db } from "@/db/client";
import { InvalidInputError } from "@/lib/errors";
import { parseExperimentConfig } from "../config";
import { getExperimentRow } from "../control";
import { experimentResults } from "../results";
import { runRecordOf } from "../run-record";
import { datasetUserKeys } from "@/lib/datasets/user-keys";
import { paperTablesOf, runFacts, type PaperTableOptions } from "./index";
import { runOnlyTables } from "./run-only";
import { paperTablesLatex } from "./latex";
import { paperTablesMarkdown } from "./markdown";
import { paperTablesCsv } from "./csv";
import { PAPER_TABLE_IDS, type PaperTable, type PaperTableId, type Section } from "./types";

/** Two to eight experiments: a table a page can hold and a request can read (each experiment's aggregates once). */
export const ACROSS_MIN = 2;
export const ACROSS_MAX = 8;

/** What one experiment's run says about itself: the facts whose differences label its block. */
export type ExperimentFacts = {
  id: number;
  name: string;
  facts: Array<{ key: string; label: string; value: string }>;
};

export type AcrossTables = { experiments: ExperimentFacts[]; tables: PaperTable[]; common: string[] };

/** "3,5,7" or [3, 5, 7]: distinct positive ids, 2 to 8 of them, or a clear error naming the field. */
export function parseExperimentIds(input: string | readonly (string | number)[]): number[] {
  const parts = typeof input === "string" ? input.split(/[\s,]+/).filter(Boolean) : input.map(String);
  const ids: number[] = [];
  for (const p of parts) {
    if (!/^\d{1,9}$/.test(p) || Number(p) < 1) throw new InvalidInputError(`experiments: "${p.slice(0, 40)}" is not an experiment id`);
    if (!ids.includes(Number(p))) ids.push(Number(p));
  }
  if (ids.length < ACROSS_MIN || ids.length > ACROSS_MAX)
    throw new InvalidInputError(`experiments: give ${ACROSS_MIN} to ${ACROSS_MAX} distinct experiment ids (got ${ids.length})`);
  return ids;
}

function factsOf(db: Db, id: number): { facts: ExperimentFacts; tables: PaperTable[] } {
  const e = getExperimentRow(db, id);
  const config = parseExperimentConfig(e.config);
  const record = runRecordOf(db, id);
  const users = config.users === "all" ? datasetUserKeys(db, record.dataset.id, 0).total : config.users.length;
  const run = runFacts(record, users);
  return {
    facts: {
      id,
      name: e.name,
      facts: [
        { key: "model", label: "Assistant", value: run.model ?? "unknown model" },
        { key: "embedding", label: "Retriever", value: run.embeddingModel ?? "no embedding model" },
        { key: "preset", label: "Protocol", value: record.preset?.label ?? "custom" },
        { key: "dataset", label: "Data set", value: record.dataset.name },
        { key: "users", label: "Users", value: `${users} user${users === 1 ? "" : "s"}` },
        { key: "repeats", label: "Runs", value: `${config.repeats} run${config.repeats === 1 ? "" : "s"}` },
      ],
    },
    tables: paperTablesOf(experimentResults(db, id), config, run),
  };
}

/** The facts that differ between the experiments (their labels), and those all share (the caption). */
function differing(exps: ExperimentFacts[]): { keys: string[]; common: string[] } {
  const keys: string[] = [];
  const common: string[] = [];
  for (const f of exps[0].facts) {
    const values = exps.map((x) => x.facts.find((y) => y.key === f.key)?.value);
    if (new Set(values).size > 1) keys.push(f.key);
    else common.push(`${f.label}: ${f.value}`);
  }
  return { keys, common };
}

function blockLabel(x: ExperimentFacts, keys: string[]): string {
  const what = x.facts.filter((f) => keys.includes(f.key)).map((f) => f.value);
  return `Experiment ${x.id}${what.length ? `: ${what.join(" · ")}` : ` (${x.name.replace(/[\r\n]+/g, " ")})`}`;
}

/** Two tables can share rows when their columns are the same (HiCUPID's differ with the number of judges). */
const sameColumns = (a: PaperTable, b: PaperTable) =>
  a.columns.length === b.columns.length && a.columns.every((c, i) => c.key === b.columns[i].key);

/** A note every experiment's table has, once; one only some have, once per experiment, naming it. */
function ownNotes(own: Array<{ id: number; notes: string[] }>): string[] {
  const out: string[] = [];
  for (const o of own)
    for (const n of o.notes) {
      if (own.every((x) => x.notes.includes(n))) {
        if (!out.includes(n)) out.push(n);
      } else out.push(`Experiment ${o.id}: ${n}`);
    }
  return out;
}

/**
 * The tables every chosen experiment makes, one block per experiment. `table`: only that one (every
 * experiment must make it); otherwise every table they all make. `runOnly`: no published rows.
 */
export function acrossExperimentTables(db: Db, ids: readonly number[], opts: PaperTableOptions = {}): AcrossTables {
  if (opts.table && !(PAPER_TABLE_IDS as readonly string[]).includes(opts.table))
    throw new InvalidInputError(`table: "${opts.table}" is not one of ${PAPER_TABLE_IDS.join(", ")}`);
  const each = ids.map((id) => factsOf(db, id));
  const experiments = each.map((x) => x.facts);
  const { keys, common } = differing(experiments);
  const wanted = opts.table
    ? [opts.table as PaperTableId]
    : PAPER_TABLE_IDS.filter((t) => each.every((x) => x.tables.some((y) => y.id === t)));
  for (const t of wanted) {
    const lacking = each.find((x) => !x.tables.some((y) => y.id === t));
    if (lacking)
      throw new InvalidInputError(
        `experiment ${lacking.facts.id} has no paper table ${t} (it did not run that table's task, or has no results yet)`,
      );
  }
  if (!wanted.length)
    throw new InvalidInputError(
      `experiments ${ids.join(", ")} have no paper table in common: pick experiments of the same task (${each.map((x) => `${x.facts.id}: ${x.tables.map((t) => t.id).join(", ") || "none"}`).join("; ")})`,
    );
  const tables = wanted.map((id) => {
    const own = each.map((x, i) => ({ x: experiments[i], t: x.tables.find((y) => y.id === id)! }));
    const first = own[0].t;
    const odd = own.find((o) => !sameColumns(o.t, first));
    if (odd)
      throw new InvalidInputError(
        `experiment ${odd.x.id}'s ${id} has other columns than experiment ${own[0].x.id}'s (${odd.t.columns.map((c) => c.label).join(", ")}): they cannot share one table`,
      );
    const sections: Section[] = own.flatMap((o) =>
      o.t.sections.filter((s) => s.kind === "run").map((s) => ({ ...s, label: blockLabel(o.x, keys) })),
    );
    // The papers' rows once each (the same published block recurs in every experiment's table); the differences stay in each experiment's own table.
    // A run of the paper's model has them as "Reported", another's "for reference": the same rows, shown once.
    const published: Section[] = [];
    const seen = new Set<string>();
    for (const o of own)
      for (const s of o.t.sections) {
        if (s.kind !== "reported" && s.kind !== "reference") continue;
        const key = JSON.stringify(s.rows.map((r) => [r.model, r.method, r.cells.map((c) => c.value)]));
        if (seen.has(key)) continue;
        seen.add(key);
        const source = s.label.replace(/^Reported in |^For reference only: /, "").replace(/ \(not this run's.*\)$/, "");
        published.push({ ...s, kind: "reference", label: `Reported in ${source}` });
      }
    const notes = [
      `${own.length} experiments, one block each, labelled by what differs between them (from each run's record).${common.length ? ` All alike: ${common.join("; ")}.` : ""}`,
      "Bold: the best of each experiment's methods per column; underlined: the second (each block ranked on its own).",
      ...ownNotes(own.map((o) => ({ id: o.x.id, notes: o.t.notes.filter((n) => !/^Bold:/.test(n)) }))),
      ...(published.length ? ["Reported rows follow for reference; each experiment's own table has its differences from them."] : []),
    ];
    const table: PaperTable = {
      ...first,
      title: `${first.title}, across experiments ${ids.join(", ")}`,
      sections: [...sections, ...published],
      notes,
    };
    return table;
  });
  return { experiments, tables: opts.runOnly ? runOnlyTables(tables) : tables, common };
}

/** One file of the table across experiments: what `pal table --experiments` prints and the page downloads. */
export function acrossTableFile(
  db: Db,
  ids: readonly number[],
  format: string,
  opts: PaperTableOptions = {},
): { body: string; contentType: string; filename: string } {
  if (!["latex", "markdown", "csv"].includes(format))
    throw new InvalidInputError(`format: "${format.slice(0, 40)}" is not one of latex, markdown, csv`);
  const { tables } = acrossExperimentTables(db, ids, opts);
  const source = `Experiments ${ids.join(", ")}`;
  const base = `experiments-${ids.join("-")}-${opts.table ?? "paper-tables"}${opts.runOnly ? "-run-only" : ""}`;
  if (format === "latex")
    return { body: paperTablesLatex(tables, source), contentType: "application/x-tex; charset=utf-8", filename: `${base}.tex` };
  if (format === "markdown")
    return { body: paperTablesMarkdown(tables, source), contentType: "text/markdown; charset=utf-8", filename: `${base}.md` };
  return { body: paperTablesCsv(tables), contentType: "text/csv; charset=utf-8", filename: `${base}.csv` };
}

/** The experiments a researcher can pick, grouped by the tasks they ran (a table across experiments needs the same task). */
export function acrossChoices(
  db: Db,
): Array<{ tasks: string; experiments: Array<{ id: number; name: string; dataset: string; status: string }> }> {
  const rows = db.$client
    .prepare(
      "SELECT e.id, e.name, e.status, e.config, d.name AS dataset FROM experiments e JOIN datasets d ON d.id = e.dataset_id ORDER BY e.id DESC",
    )
    .all() as Array<{ id: number; name: string; status: string; config: string; dataset: string }>;
  const groups = new Map<string, Array<{ id: number; name: string; dataset: string; status: string }>>();
  for (const r of rows) {
    let tasks = "unknown tasks";
    try {
      const t = (JSON.parse(r.config) as { tasks?: unknown }).tasks;
      if (Array.isArray(t)) tasks = t.map(String).join(", ");
    } catch {
      // A config that does not parse still lists the experiment; its tables will say what is wrong.
    }
    const g = groups.get(tasks) ?? [];
    g.push({ id: r.id, name: r.name, dataset: r.dataset, status: r.status });
    groups.set(tasks, g);
  }
  return [...groups].map(([tasks, experiments]) => ({ tasks, experiments }));
}
