/**
 * Mem-PAL Table 10 (DeepSeek-V3.1) and HiCUPID Table A2 (hit rate) beside a run's rows: compared (a
 * difference taken) only when the run's record names the paper's model or retriever, else shown as
 * reference only; both through a real SQLite database and its run record.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempDb } from "@/test/db";
import { KNOWN_EXPERIMENT_CONFIG, seedHitRateExperiment, seedKnownExperiment } from "@/test/known-experiment";
import { experimentPaperTables, paperTableFile } from "./index";
import { hicupidTableA2, memPalTable10 } from "./supplements";
import { memPalTable2 } from "./build";
import type { SummaryLike } from "./types";

const memPalSummary = (method: string, g: number, s: number): SummaryLike[] => [
  { method, task: "requirement", runs: 1, metrics: { gscore: { mean: g, sd: null, p: null } } },
  { method, task: "solution", runs: 1, metrics: { selection: { mean: s, sd: null, p: null } } },
];
const memPalInput = (model: string | null, embeddingModel: string | null = null) => ({
  methods: [
    { name: "vanilla", options: {} },
    { name: "turn-rag", options: {} },
    { name: "h2memory", options: {} },
  ],
  reference: "h2memory",
  summary: [...memPalSummary("vanilla", 30, 20), ...memPalSummary("turn-rag", 35, 25), ...memPalSummary("h2memory", 50, 41)],
  pairwise: [],
  model,
  embeddingModel,
});

describe("Mem-PAL Table 10 (the DeepSeek-V3.1 supplement)", () => {
  it("a DeepSeek-V3.1 run is compared with Table 10's rows, the difference taken", () => {
    const t = memPalTable10(memPalInput("deepseek-ai/DeepSeek-V3.1", "BAAI/bge-base-zh"))!;
    expect(t.columns.map((c) => c.label)).toEqual(["G-Score", "S-Score"]);
    expect(t.sections.map((s) => [s.kind, s.label])).toEqual([
      ["run", "This run (deepseek-ai/DeepSeek-V3.1)"],
      ["reported", "Reported in Mem-PAL, Table 10"],
      ["difference", "Difference (this run − Mem-PAL, Table 10)"],
    ]);
    // Table 10 has no Turn-level RAG row: the run's row stays, with nothing beside it.
    expect(t.sections[1].rows.map((r) => [r.name, r.cells.map((c) => c.value)])).toEqual([
      ["Vanilla (w/o log)", [25.61, 22.48]],
      ["H2Memory", [49.77, 40.4]],
    ]);
    expect(t.sections[2].rows.map((r) => r.cells.map((c) => Number(c.value!.toFixed(2))))).toEqual([
      [4.39, -2.48],
      [0.23, 0.6],
    ]);
    expect(t.notes.join(" ")).toContain("this run's assistant (deepseek-ai/DeepSeek-V3.1) is Table 10's model");
    expect(t.notes.join(" ")).not.toContain("retriever is");
  });

  it("a run with another model gets Table 10's rows as reference only: no 'Reported' label, no difference", () => {
    const t = memPalTable10(memPalInput("gpt-4o-mini"))!;
    expect(t.sections.map((s) => s.kind)).toEqual(["run", "reference"]);
    expect(t.sections[1].label).toBe("For reference only: Mem-PAL, Table 10, DeepSeek-V3.1 (not this run's model; no difference taken)");
    expect(t.notes.join(" ")).toContain("shown for reference only: this run's assistant is gpt-4o-mini, not DeepSeek-V3.1");
    // An unknown model is not the paper's either.
    expect(memPalTable10(memPalInput(null))!.sections.map((s) => s.kind)).toEqual(["run", "reference"]);
    // DeepSeek's other models are not V3.1.
    expect(memPalTable10(memPalInput("deepseek-v3"))!.sections.map((s) => s.kind)).toEqual(["run", "reference"]);
  });

  it("the paper's model with another retriever says the difference mixes in the retriever", () => {
    const t = memPalTable10(memPalInput("deepseek-v3.1", "paraphrase-multilingual-mpnet-base-v2"))!;
    expect(t.notes).toContain(
      "This run's retriever is paraphrase-multilingual-mpnet-base-v2, not Table 10's bge-base-zh: the difference mixes in the retriever.",
    );
  });

  it("no table when none of the run's methods is in Table 10", () => {
    const input = memPalInput("deepseek-v3.1");
    expect(memPalTable10({ ...input, methods: [{ name: "turn-rag", options: {} }] })).toBeNull();
  });
});

describe("Table 10 from a run's record", () => {
  let t: ReturnType<typeof tempDb>;
  beforeAll(() => (t = tempDb()));
  afterAll(() => t.cleanup());

  it("names the run's model, never today's settings; compares only a DeepSeek-V3.1 run", () => {
    const qwen = seedKnownExperiment(t.db.$client as never);
    const deepseek = seedKnownExperiment(t.db.$client as never, { name: "DeepSeek run" });
    t.db.$client
      .prepare("UPDATE experiments SET config = ? WHERE id = ?")
      .run(JSON.stringify({ ...KNOWN_EXPERIMENT_CONFIG, models: { assistant: { model: "deepseek-v3.1" } } }), deepseek);
    const csv = (id: number) => paperTableFile(t.db, id, "csv", { table: "mem-pal-table10" }).body;
    const mine = csv(deepseek);
    expect(mine).toContain('mem-pal-table10,"Reported in Mem-PAL, Table 10",,h2memory,H2Memory,,Requirement Restatement,G-Score,49.77,,,');
    // H2Memory's G-Score 91.6667 (test/known-experiment.ts) − 49.77.
    expect(mine).toContain(
      'mem-pal-table10,"Difference (this run − Mem-PAL, Table 10)",,h2memory,H2Memory,,Requirement Restatement,G-Score,41.8967,,,',
    );
    const [t2] = experimentPaperTables(t.db, deepseek).tables;
    expect(t2.notes.join(" ")).toContain("Mem-PAL Table 10 compares its G-Score and S-Score with the paper's DeepSeek-V3.1 rows");
    expect(experimentPaperTables(t.db, qwen).tables[0].notes.join(" ")).not.toContain("Table 10");
    const other = csv(qwen);
    expect(other).toContain("This run (qwen-max-0428)");
    expect(other).not.toMatch(/Reported in Mem-PAL, Table 10|Difference/);
    expect(other).toContain(
      `mem-pal-table10,"For reference only: Mem-PAL, Table 10, DeepSeek-V3.1 (not this run's model; no difference taken)",,h2memory,H2Memory,,Requirement Restatement,G-Score,49.77,,,`,
    );
  });
});

const hitSummary = (method: string, v: number[], runs = 1): SummaryLike => ({
  method,
  task: "hicupid",
  runs,
  metrics: Object.fromEntries(
    ["hitPersona", "hitSchedule", "hitMultiPersona", "hitMultiProfile", "hitRate"].map((k, i) => [k, { mean: v[i], sd: null, p: null }]),
  ),
});
const hicupidMethods = [
  { name: "full-history", label: "0-shot", options: { shots: 0 } },
  { name: "rag-utterance", label: "bm25-k5", options: { retriever: "bm25", k: 5 } },
  { name: "rag-utterance", label: "dense-k5", options: { retriever: "dense", k: 5 } },
  { name: "rag-dialogue", label: "bm25-d3", options: { retriever: "bm25", k: 3 } },
  { name: "rag-utterance", label: "bm25-k7", options: { retriever: "bm25", k: 7 } },
];
const a2Input = (embeddingModel: string | null) => ({
  methods: hicupidMethods,
  reference: "0-shot",
  summary: [
    { method: "0-shot", task: "hicupid", runs: 1, metrics: { hitRate: { mean: null, sd: null, p: null } } },
    hitSummary("bm25-k5", [60, 100, 40, 20, 66.25]),
    hitSummary("dense-k5", [80, 90, 60, 30, 75.625]),
    hitSummary("bm25-d3", [50, 100, 50, 10, 60]),
    hitSummary("bm25-k7", [70, 100, 50, 30, 71.25]),
  ],
  pairwise: [],
  model: "llama-3.1-8b",
  embeddingModel,
  splits: ["test_1"],
});

describe("HiCUPID Table A2 (retrieval hit rate)", () => {
  it("the run's retrieving methods beside the paper's same settings; Contriever compared only with a Contriever encoder", () => {
    const t = hicupidTableA2(a2Input("facebook/contriever"))!;
    expect(t.columns.map((c) => c.label)).toEqual(["Persona", "Schedule", "Persona", "Profile", "Total"]);
    expect(t.groups.map((g) => g.label)).toEqual(["", "Multi-Info", ""]);
    const [run, reported, diff] = t.sections;
    // 0-shot retrieves nothing: no row.
    expect(run.rows.map((r) => r.name)).toEqual([
      "BM25, utterance, k = 5",
      "Contriever, utterance, k = 5",
      "BM25, dialogue, k = 3",
      "BM25, utterance, k = 7",
    ]);
    expect(reported.label).toBe("Reported in HiCUPID, Table A2");
    // The paper has no k = 7: that row has nothing beside it.
    expect(reported.rows.map((r) => [r.name, r.cells.map((c) => c.value)])).toEqual([
      ["BM25, utterance, k = 5", [50.0, 99.6, 38.0, 23.0, 60.0]],
      ["Contriever, utterance, k = 5", [82.1, 91.2, 65.4, 29.1, 80.0]],
      ["BM25, dialogue, k = 3", [58.0, 99.7, 49.2, 19.4, 65.4]],
    ]);
    expect(diff.rows.map((r) => Number(r.cells[4].value!.toFixed(3)))).toEqual([6.25, -4.375, -5.4]);
  });

  it("another dense encoder: the Contriever row is reference only, the run's row named Dense", () => {
    const t = hicupidTableA2(a2Input("BAAI/bge-m3"))!;
    expect(t.sections.map((s) => s.kind)).toEqual(["run", "reported", "difference", "reference"]);
    expect(t.sections[0].rows[1].name).toBe("Dense, utterance, k = 5");
    expect(t.sections[1].rows.map((r) => r.name)).toEqual(["BM25, utterance, k = 5", "BM25, dialogue, k = 3"]);
    expect(t.sections[2].rows.map((r) => r.method)).toEqual(["bm25-k5", "bm25-d3"]);
    const ref = t.sections[3];
    expect(ref.label).toBe(
      "For reference only: HiCUPID, Table A2, Contriever (this run's dense encoder is BAAI/bge-m3; no difference taken)",
    );
    expect(ref.rows.map((r) => [r.name, r.cells[4].value])).toEqual([["Contriever, utterance, k = 5", 80.0]]);
  });

  it("no table without a retrieving method", () => {
    const input = a2Input(null);
    expect(hicupidTableA2({ ...input, methods: [hicupidMethods[0]], summary: [input.summary[0]] })).toBeNull();
  });
});

describe("Table A2 from a HiCUPID run's stored scores", () => {
  let t: ReturnType<typeof tempDb>;
  beforeAll(() => (t = tempDb()));
  afterAll(() => t.cleanup());

  it("each type's hits and the weighted total, in the CSV with the paper's row and the difference", () => {
    const exp = seedHitRateExperiment(t.db.$client as never);
    const [a2] = experimentPaperTables(t.db, exp, { table: "hicupid-table-a2" }).tables;
    // test/known-experiment.ts: persona 75, schedule 100, multi-info persona 50 and profile 100, total 81.25.
    expect(a2.sections[0].rows[0].cells.map((c) => c.value)).toEqual([75, 100, 50, 100, 81.25]);
    const csv = paperTableFile(t.db, exp, "csv", { table: "hicupid-table-a2" }).body;
    expect(csv).toContain(
      'hicupid-table-a2,"Reported in HiCUPID, Table A2",,"BM25, utterance, k = 5","BM25, utterance, k = 5",,,Total,60,,,',
    );
    expect(csv).toContain(
      'hicupid-table-a2,"Difference (this run − HiCUPID, Table A2)",,bm25-k5,"BM25, utterance, k = 5",,,Total,21.25,,,',
    );
  });
});

describe("Mem-PAL Table 2 beside the paper's n (issue 44.4)", () => {
  it("the difference names this run's topics beside the paper's 826; one user is a smoke run, not a reproduction", () => {
    const t = memPalTable2({ ...memPalInput("qwen-max"), topics: { requirement: 12, solution: 12 }, users: 1 })!;
    const diff = t.sections.find((s) => s.kind === "difference")!;
    expect(diff.label).toBe("Difference (this run, 12 topics − Mem-PAL, Table 2, 826 topics)");
    const notes = t.notes.join(" ");
    expect(notes).toContain("means over its 826 test topics; this run's: 12 topics of 1 user.");
    expect(notes).toContain("One user: a smoke run of the protocol, not a reproduction of Mem-PAL, Table 2");
    // Several users: no smoke-run note; different counts per task are both named.
    const many = memPalTable2({ ...memPalInput("qwen-max"), topics: { requirement: 40, solution: 38 }, users: 5 })!;
    expect(many.sections.find((s) => s.kind === "difference")!.label).toContain("40 requirement / 38 solution topics");
    expect(many.notes.join(" ")).not.toContain("smoke run");
  });
});

describe("ties in a column (issue 44.6)", () => {
  it("every row tied for the best is bold, every row tied for the second underlined", () => {
    const t = memPalTable10({
      ...memPalInput("deepseek-ai/DeepSeek-V3.1"),
      summary: [...memPalSummary("vanilla", 40, 20), ...memPalSummary("turn-rag", 40, 20), ...memPalSummary("h2memory", 30, 41)],
    })!;
    const ranks = t.sections[0].rows.map((r) => r.cells.map((c) => c.rank));
    // G-Score: vanilla and turn-rag tie for the best; S-Score: they tie for the second.
    expect(ranks).toEqual([
      [1, 2],
      [1, 2],
      [2, 1],
    ]);
  });
});
