/**
 * The paper tables built from an experiment's summaries: pure functions of the per-method summaries and
 * the per-run W/T/L (so they can be fed from any cache of those aggregates). Each table has the run's
 * rows (best per column bold, second underlined, † for significance against the reference), the
 * papers' published rows for the same methods, and the difference between the two.
 */
import { methodKey } from "../config";
import { hicupidColumns, MEM_PAL_T2_COLUMNS, MEM_PAL_T2_GROUPS, MEM_PAL_T3_COLUMNS, MEM_PAL_T3_GROUPS } from "./columns";
import { hicupidName, memPalName } from "./names";
import { cell, memPalRunRows, metricCell, namesModel, rankRows, reportedAndDiff, row, runsNote, type TableInput } from "./parts";
import { HICUPID_MODELS, PUBLISHED } from "./published";
import { hicupidTableA2, memPalTable10 } from "./supplements";
import { locomoTable, longmemevalTable } from "./benchmarks";
import { SIG_LEVEL, type PaperTable, type Section } from "./types";

export type { TableInput } from "./parts";

/** Mem-PAL Table 2: requirement restatement and solution proposal; null when the experiment ran neither task. */
export function memPalTable2(input: TableInput): PaperTable | null {
  const columns = MEM_PAL_T2_COLUMNS;
  const rr = memPalRunRows(input, columns);
  if (!rr) return null;
  const { runRows, maxRuns, refName } = rr;
  const run = runRows.map((x) => x.r);
  rankRows(run, columns);
  const table = PUBLISHED.memPalTable2;
  const sections: Section[] = [
    { kind: "run", label: "This run", rows: run },
    ...reportedAndDiff(runRows, table, (m) => table.rows.find((p) => p.method === m)),
  ];
  // The difference names both n's: a mean over a handful of topics beside one over 826 is not a like-for-like gap.
  const n = runTopicsText(input, ["requirement", "solution"]);
  const diff = sections.find((s) => s.kind === "difference");
  if (diff) diff.label = `Difference (this run, ${n ?? "n unknown"} − ${table.source}, ${table.topics} topics)`;
  return {
    id: "mem-pal-table2",
    title: "Mem-PAL Table 2: requirement restatement and solution proposal",
    stub: "Methods",
    withModel: false,
    groups: MEM_PAL_T2_GROUPS,
    columns,
    sections,
    notes: [
      `${runsNote(maxRuns)} B-1 to B-4: BLEU-1 to BLEU-4 (× 100). G-Score: the judge gives each topic 0-2 points (1 per implicit need met, 0.5 for a partial match), reported as the mean × 50 (0-100). S-Score: of the 2 solutions the assistant selects among 8 candidates, +1 per positive and -1 per negative one, reported as the mean × 50 (-100 to 100).`,
      "Bold: the best of this run's methods per column; underlined: the second.",
      maxRuns > 1
        ? `†: p < 0.01 against ${refName} (two-sided paired t-test over the runs).`
        : `No significance mark: the paired t-test against ${refName} needs at least 2 runs.`,
      `Reported rows: ${table.source} (${table.setup}), means over its ${table.topics} test topics; this run's: ${n ?? "an unknown number of topics"}${usersText(input.users)}.`,
      ...smallRunNote(input.users, table.source),
      ...(namesModel(input.model, "DeepSeek-V3.1")
        ? [
            `This run's assistant is DeepSeek-V3.1, not Qwen-Max-0428: Mem-PAL Table 10 compares its G-Score and S-Score with the paper's DeepSeek-V3.1 rows.`,
          ]
        : []),
    ],
  };
}

/** "12 topics" or "12 requirement / 10 solution topics" for the tasks the run did; null when unknown. */
export function runTopicsText(input: TableInput, tasks: readonly string[]): string | null {
  const got = tasks.filter((t) => input.topics?.[t] !== undefined).map((t) => [t, input.topics![t]] as const);
  if (!got.length) return null;
  const distinct = new Set(got.map(([, n]) => n));
  if (distinct.size === 1) return `${got[0][1]} topic${got[0][1] === 1 ? "" : "s"}`;
  return `${got.map(([t, n]) => `${n} ${t}`).join(" / ")} topics`;
}

const usersText = (users: number | null | undefined) =>
  typeof users === "number" && users > 0 ? ` of ${users} user${users === 1 ? "" : "s"}` : "";

/** A run over one user is a smoke run: say so beside the paper's rows, so it is not read as a reproduction. */
export function smallRunNote(users: number | null | undefined, source: string): string[] {
  return users === 1
    ? [`One user: a smoke run of the protocol, not a reproduction of ${source} (which averages over every test user).`]
    : [];
}

/** Mem-PAL Table 3: Win / Tie / Lose of the reference against each other method; null without pairwise judgments. */
export function memPalTable3(input: TableInput): PaperTable | null {
  const pairs = input.pairwise.filter((p) => p.a === input.reference);
  if (!pairs.length) return null;
  const columns = MEM_PAL_T3_COLUMNS;
  const dims = ["requirement", "preference"];
  const refSpec = input.methods.find((m) => methodKey(m) === input.reference);
  const refName = refSpec ? memPalName(refSpec).name : input.reference;
  const bs = [...new Set(pairs.map((p) => p.b))];
  const order = input.methods.map(methodKey);
  bs.sort((x, y) => order.indexOf(x) - order.indexOf(y));
  const maxRuns = Math.max(...pairs.map((p) => p.runs));
  const topics = Math.max(...pairs.map((p) => p.topics));
  const runRows = bs.map((b) => {
    const spec = input.methods.find((m) => methodKey(m) === b) ?? { name: b };
    const n = memPalName(spec);
    const cells = dims.flatMap((d) => {
      const p = pairs.find((x) => x.b === b && x.dimension === d);
      if (!p) return [cell(null), cell(null), cell(null)];
      const digits = p.runs > 1 ? 1 : 0;
      return [
        cell(p.win, p.sd?.win ?? null, p.p !== null && p.p < SIG_LEVEL && p.win > p.lose, digits),
        cell(p.tie, p.sd?.tie ?? null, false, digits),
        cell(p.lose, p.sd?.lose ?? null, false, digits),
      ];
    });
    const runs = Math.max(0, ...pairs.filter((p) => p.b === b).map((p) => p.runs));
    return {
      r: row(b, n, cells, runs),
      paperRow: n.row,
      topicsOf: (d: number) => pairs.find((x) => x.b === b && x.dimension === dims[d])?.topics ?? 0,
    };
  });
  const table = PUBLISHED.memPalTable3;
  // Counts over different numbers of topics do not compare: the difference is in percentage points of the topics.
  const sections: Section[] = [
    { kind: "run", label: "This run", rows: runRows.map((x) => x.r) },
    ...reportedAndDiff(
      runRows,
      table,
      (m) => table.rows.find((p) => p.method === m),
      (run, v, i, p) => {
        const d = Math.floor(i / 3);
        const own = runRows.find((x) => x.r.cells.some((c) => c === run));
        const n = own?.topicsOf(d) ?? 0;
        const paperTopics = p.values.slice(d * 3, d * 3 + 3).reduce((a, b) => a + b, 0);
        return cell(run.value === null || !n ? null : (run.value / n) * 100 - (v / paperTopics) * 100, null, false, 1);
      },
    ),
  ];
  const diff = sections.find((s) => s.kind === "difference");
  if (diff) diff.label = `Difference in percentage points of the topics (this run − ${table.source})`;
  return {
    id: "mem-pal-table3",
    title: "Mem-PAL Table 3: multi-turn dialogue interaction (Win / Tie / Lose)",
    stub: `${refName} vs`,
    withModel: false,
    groups: MEM_PAL_T3_GROUPS,
    columns,
    sections,
    notes: [
      maxRuns > 1
        ? `Win / Tie / Lose of ${refName} against each method per run: the mean ± sd over ${maxRuns} runs (W + T + L = the ${topics} topics of one run).`
        : `Win / Tie / Lose of ${refName} against each method over the ${topics} topics of one run.`,
      ...(input.tieMargin
        ? [
            `Read at tie margin ${input.tieMargin.margin} (re-derived from the judges' mean scores${input.tieMargin.source ? `, calibrated on ${input.tieMargin.source}` : ""}).`,
          ]
        : []),
      `†: ${refName}'s wins outnumber its losses significantly in every run (two-sided sign test, ties left out, p < 0.01).`,
      `Reported rows: ${table.source} (${table.setup}); the differences are in percentage points of the topics, as the two count different numbers of topics.`,
    ],
  };
}

/** The paper's model a run is compared with: as asked, else the run's model when the paper has it, else Llama-3.1-8B. */
export function paperModelFor(model: string | null, asked?: string | null): { model: string; matched: boolean } {
  const norm = (s: string) => s.toLowerCase().replace(/[^a-z0-9]/g, "");
  if (asked) {
    const m = HICUPID_MODELS.find((x) => norm(x) === norm(asked));
    if (m) return { model: m, matched: true };
  }
  const n = norm(model ?? "");
  const m = HICUPID_MODELS.find((x) => n.includes(norm(x)));
  return m ? { model: m, matched: true } : { model: "Llama-3.1-8B", matched: false };
}

/** HiCUPID Table 3 (Table 4 for a run on test_2 alone): per model and method; null without the hicupid task. */
export function hicupidTable3(input: TableInput): PaperTable | null {
  const rows = input.summary.filter((s) => s.task === "hicupid");
  if (!rows.length) return null;
  const judges = input.judges ?? ["judge"];
  const { groups, columns } = hicupidColumns(judges.length);
  const model = input.model ?? "assistant";
  const refSpec = input.methods.find((m) => methodKey(m) === input.reference);
  const refName = refSpec ? hicupidName(refSpec).name : input.reference;
  let maxRuns = 0;
  const runRows = input.methods
    .filter((m) => rows.some((s) => s.method === methodKey(m)))
    .map((m) => {
      const key = methodKey(m);
      const n = hicupidName(m);
      const s = rows.find((x) => x.method === key)!;
      maxRuns = Math.max(maxRuns, s.runs);
      const cells = columns.map((c) => metricCell(s.metrics[c.key], s.runs, key === input.reference));
      return { r: row(key, n, cells, s.runs, model), paperRow: n.row };
    });
  rankRows(
    runRows.map((x) => x.r),
    columns,
  );
  const test2 = (input.splits ?? []).includes("test_2") && !(input.splits ?? []).includes("test_1");
  const both = (input.splits ?? []).includes("test_2") && (input.splits ?? []).includes("test_1");
  const table = test2 ? PUBLISHED.hicupidTable4 : PUBLISHED.hicupidTable3;
  const paper = paperModelFor(input.model, input.paperModel);
  const n = columns.length;
  const sections: Section[] = [
    { kind: "run", label: "This run", rows: runRows.map((x) => x.r) },
    ...reportedAndDiff(runRows, table, (m) => {
      const p = table.rows.find((x) => x.model === paper.model && x.method === m);
      return p && { ...p, values: p.values.slice(0, n) };
    }),
  ];
  const judgeNote =
    judges.length > 1
      ? `S_GPT: the experiment's first judge (${judges[0]}); S_Llama: its second (${judges[1]}).`
      : `S_GPT: the experiment's judge (${judges[0]}).`;
  return {
    id: "hicupid-table3",
    title: `${table.source.replace(", ", " ")}: personalized QA (${test2 ? "Test Set 2" : both ? "this run: Test Sets 1 and 2; reported: Test Set 1" : "Test Set 1"})`,
    stub: "Method",
    withModel: true,
    groups,
    columns,
    sections,
    notes: [
      `${runsNote(maxRuns)} BLEU and ROUGE-L over all QA pairs (× 100). Persona and Multi-Info: the model's win rate over the personalized answer + 0.5 × the tie rate (50 = as good as the reference answer); Schedule: the share judged free of schedule conflicts; Total = persona × 25/40 + schedule / 2 × 10/40 + multi-info × 5/40.`,
      `${judgeNote} Contriever: the dense retriever of the embedding role (utterance level, k = 5).`,
      "Bold: the best of this run's methods per column; underlined: the second.",
      maxRuns > 1
        ? `†: p < 0.01 against ${refName} (two-sided paired t-test over the runs).`
        : `No significance mark: the paired t-test against ${refName} needs at least 2 runs.`,
      ...(both
        ? [
            "This run's rows are over both test splits; the reported rows are Test Set 1's (Table 3), so the difference mixes in Test Set 2.",
          ]
        : []),
      `Reported rows: ${table.source}, ${paper.model} (${table.setup})${
        paper.matched
          ? ""
          : `; the run's model (${input.model ?? "unknown"}) is not one of the paper's, so it is compared with Llama-3.1-8B, the paper's model with every one of these settings`
      }.`,
    ],
  };
}

/** Every paper table the experiment's tasks make, in the papers' order. */
export function buildPaperTables(input: TableInput): PaperTable[] {
  return [
    memPalTable2(input),
    memPalTable3(input),
    memPalTable10(input),
    hicupidTable3(input),
    hicupidTableA2(input),
    locomoTable(input),
    longmemevalTable(input),
  ].filter((t): t is PaperTable => t !== null);
}
