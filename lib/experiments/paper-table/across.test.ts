/**
 * A paper table across experiments (issue 44.6) from known experiments in a real SQLite database
 * (test/known-experiment.ts): the same hand-chosen scores, the second experiment's assistant served as
 * DeepSeek-V3.1 by the ledger (its config still asks for Qwen-Max), as Mem-PAL's Table 10 sets a second
 * model beside Table 2.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempDb } from "@/test/db";
import { KNOWN_EXPERIMENT_CONFIG, seedKnownExperiment } from "@/test/known-experiment";
import { acrossExperimentTables, acrossTableFile, parseExperimentIds } from "./across";
import { tableMarkdown } from "./markdown";

/** Ledger rows saying the endpoint served the experiment's assistant as `served`. */
function serveAs(db: ReturnType<typeof tempDb>["db"], experimentId: number, served: string): void {
  const ins = db.$client.prepare(
    "INSERT INTO llm_calls (experiment_id, purpose, role, config, endpoint, model, status, served_model, created_at) VALUES (?, 'answer', 'assistant', 'assistant', 'default', 'qwen-max-0428', 'ok', ?, ?)",
  );
  for (let i = 0; i < 3; i++) ins.run(experimentId, served, Date.now());
}

describe("a paper table across experiments", () => {
  let t: ReturnType<typeof tempDb>;
  let a: number;
  let b: number;
  let hicupidLess: number;
  beforeAll(() => {
    t = tempDb();
    a = seedKnownExperiment(t.db.$client as never, { name: "Qwen run" });
    b = seedKnownExperiment(t.db.$client as never, { name: "DeepSeek run" });
    serveAs(t.db, b, "deepseek-v3.1");
    // An experiment of another task: a HiCUPID-only config on the same scores has no Mem-PAL table.
    hicupidLess = seedKnownExperiment(t.db.$client as never, { name: "Dialogue only" });
    t.db.$client
      .prepare("UPDATE experiments SET config = ? WHERE id = ?")
      .run(JSON.stringify({ ...KNOWN_EXPERIMENT_CONFIG, tasks: ["dialogue"] }), hicupidLess);
    t.db.$client.prepare("DELETE FROM jobs WHERE experiment_id = ? AND task != 'dialogue'").run(hicupidLess);
  });
  afterAll(() => t.cleanup());

  it("one block per experiment, labelled by the assistant model each run's ledger names", () => {
    const { tables, experiments, common } = acrossExperimentTables(t.db, [a, b], { table: "mem-pal-table10" });
    expect(experiments.map((e) => e.facts.find((f) => f.key === "model")!.value)).toEqual(["qwen-max-0428", "deepseek-v3.1"]);
    const [t10] = tables;
    expect(t10.title).toBe(
      `Mem-PAL Table 10: requirement restatement and solution proposal with DeepSeek-V3.1 (supplement), across experiments ${a}, ${b}`,
    );
    const run = t10.sections.filter((s) => s.kind === "run");
    // Only the model differs (same data set kind, users, runs; the data sets differ by name, so they are named too).
    expect(run.map((s) => s.label)).toEqual([
      expect.stringMatching(new RegExp(`^Experiment ${a}: qwen-max-0428 · known data`)),
      expect.stringMatching(new RegExp(`^Experiment ${b}: deepseek-v3.1 · known data`)),
    ]);
    expect(common).toContain("Runs: 3 runs");
    // The same scores in each block, each ranked on its own: H2Memory's G-Score 91.67 bold in both.
    for (const s of run) {
      const h2 = s.rows.find((r) => r.method === "h2memory")!;
      expect(h2.cells[0].value).toBeCloseTo(91.6667, 3);
      expect(h2.cells[0].rank).toBe(1);
      expect(s.rows.find((r) => r.method === "memorybank")!.cells[0].rank).toBe(2);
    }
    // The published DeepSeek rows once, for reference, no differences (those stay in each experiment's own table).
    expect(t10.sections.filter((s) => s.kind === "reference")).toHaveLength(1);
    expect(t10.sections.some((s) => s.kind === "difference" || s.kind === "reported")).toBe(false);
    const md = tableMarkdown(t10);
    expect(md).toContain(`| *Experiment ${b}: deepseek-v3.1`);
    expect(md).toContain("| H2Memory | **91.67 ± 14.43** |");
  });

  it("a tie is not all bold across blocks: each block's ranks are its own, and equal values share a rank", () => {
    const [t2] = acrossExperimentTables(t.db, [a, b], { table: "mem-pal-table2" }).tables;
    const ranks = t2.sections.filter((s) => s.kind === "run").map((s) => s.rows.map((r) => r.cells[0].rank));
    expect(ranks).toEqual([
      [null, 2, 1],
      [null, 2, 1],
    ]);
  });

  it("--run-only: the experiments' rows alone, no published rows and no notes about them", () => {
    const { tables } = acrossExperimentTables(t.db, [a, b], { runOnly: true });
    expect(tables.map((x) => x.id)).toEqual(["mem-pal-table2", "mem-pal-table3", "mem-pal-table10"]);
    for (const x of tables) {
      expect(x.sections.every((s) => s.kind === "run")).toBe(true);
      expect(x.sections).toHaveLength(2);
      expect(x.notes.join(" ")).not.toMatch(/Reported rows|For reference/);
    }
    const tex = acrossTableFile(t.db, [a, b], "latex", { runOnly: true, table: "mem-pal-table10" }).body;
    expect(tex).toContain(`\\multicolumn{3}{l}{\\textit{Experiment ${b}: deepseek-v3.1`);
    expect(tex).not.toContain("For reference");
    const csv = acrossTableFile(t.db, [a, b], "csv", { table: "mem-pal-table10" });
    expect(csv.filename).toBe(`experiments-${a}-${b}-mem-pal-table10.csv`);
    expect(csv.body.split("\n").filter((l) => l.startsWith("mem-pal-table10,"))).toHaveLength(3 * 2 * 2 + 3 * 2); // 3 methods × 2 columns × 2 experiments, the published rows once;
  });

  it("refuses experiments of different tasks, a missing table and bad ids, naming what is wrong", () => {
    expect(() => acrossExperimentTables(t.db, [a, hicupidLess], { table: "mem-pal-table2" })).toThrow(
      `experiment ${hicupidLess} has no paper table mem-pal-table2`,
    );
    // Without --table, the tables both make: Table 3 only (the dialogue task).
    expect(acrossExperimentTables(t.db, [a, hicupidLess]).tables.map((x) => x.id)).toEqual(["mem-pal-table3"]);
    expect(() => acrossExperimentTables(t.db, [a, 99999])).toThrow("experiment 99999 does not exist");
    expect(() => parseExperimentIds("3")).toThrow("experiments: give 2 to 8 distinct experiment ids (got 1)");
    expect(() => parseExperimentIds("3,3")).toThrow("(got 1)");
    expect(() => parseExperimentIds("3,x;DROP")).toThrow('experiments: "x;DROP" is not an experiment id');
    expect(parseExperimentIds("3, 5,7")).toEqual([3, 5, 7]);
    expect(() => acrossTableFile(t.db, [a, b], "docx")).toThrow('format: "docx" is not one of latex, markdown, csv');
  });
});
