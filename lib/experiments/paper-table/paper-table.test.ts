/**
 * Paper tables of a known experiment (test/known-experiment.ts: hand-chosen scores in a real SQLite
 * database) equal hand-checked fixtures. The values, worked out by hand (3 runs, 2 topics):
 * - Requirement B-1 per run: Vanilla 10, 11, 12 → 11.00 ± 1.00; MemoryBank 20, 22, 24 → 22.00 ± 2.00
 *   (second, underlined); H2Memory 30, 32, 31 → 31.00 ± 1.00 (best, bold). Paired t-test against H2Memory:
 *   Vanilla's differences 20, 21, 19 → t = 20 / (1/√3) = 34.6, df 2, p = 1 − t/√(t² + 2) = 0.0008 < 0.01 (†);
 *   MemoryBank's 10, 10, 7 → t = 9, p = 1 − 9/√83 = 0.012 (no mark). B-2..B-4 are B-1 − 5, − 8, − 9: same marks.
 * - G-Score (0-2 points × 50): Vanilla 50, 50, 25 → 41.67 ± 14.43; MemoryBank 75, 75, 50 → 66.67; H2Memory
 *   100, 75, 100 → 91.67; differences 50, 25, 75 → t = 3.46, p = 0.074: no mark.
 * - Solution B-1: Vanilla 15, 15, 15 (†: differences 10, 11, 9, p = 0.003); MemoryBank 25, 26, 27 → 26.00
 *   (bold: it beats the reference here); H2Memory 25, 26, 24 → 25.00 (underlined).
 * - S-Score (points −2..2 × 50): Vanilla −25, 0, −50 → −25.00 ± 25.00; MemoryBank 25, 50, 0 → 25.00;
 *   H2Memory 75, 50, 100 → 75.00 (bold); no mark (p = 0.074).
 * - Table 3, H2Memory vs Vanilla, requirement: W 2, 1, 1 → 1.3 ± 0.6; T 0, 1, 0 → 0.3 ± 0.6; L 0, 0, 1 → 0.3 ± 0.6;
 *   against Mem-PAL's 478 / 29 / 319 of 826: W 66.67 % − 57.87 % = +8.8 points, T +13.2, L −22.0.
 */
import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempDb } from "@/test/db";
import { seedKnownExperiment } from "@/test/known-experiment";
import { paperTableFile, experimentPaperTables } from "./index";
import { hicupidTable3, paperModelFor } from "./build";
import { hicupidName } from "./names";
import { tableMarkdown } from "./markdown";

const FIXTURES = path.resolve(import.meta.dirname, "../../../fixtures/paper-tables");
const fixture = (f: string) => fs.readFileSync(path.join(FIXTURES, f), "utf8");

describe("paper tables of a known experiment", () => {
  let t: ReturnType<typeof tempDb>;
  let id: number;
  beforeAll(() => {
    t = tempDb();
    id = seedKnownExperiment(t.db.$client as never);
  });
  afterAll(() => t.cleanup());

  it("the LaTeX equals the hand-checked fixture", () => {
    expect(paperTableFile(t.db, id, "latex").body).toBe(fixture("known-experiment.tex").replace("Experiment 1 ", `Experiment ${id} `));
  });

  it("the CSV equals the hand-checked fixture: one header row, one line per cell", () => {
    const csv = paperTableFile(t.db, id, "csv").body;
    expect(csv).toBe(fixture("known-experiment.csv"));
    const rows = csv.trim().split("\n");
    expect(rows.filter((l) => l.startsWith("table,"))).toHaveLength(1);
    // 3 methods × 10 columns × 3 sections (Table 2) + 2 baselines × 6 columns × 3 sections (Table 3)
    // + 3 methods × 2 columns × 2 sections (Table 10: the run and, as its model is not DeepSeek-V3.1, the reference rows).
    expect(rows).toHaveLength(1 + 90 + 36 + 12);
  });

  it("bold is the best and underline the second of the run's rows per column; † where p < 0.01", () => {
    const [t2] = experimentPaperTables(t.db, id).tables;
    const run = t2.sections[0].rows;
    const at = (method: string, col: number) => run.find((r) => r.method === method)!.cells[col];
    // Requirement B-1 (column 0): H2Memory bold, MemoryBank underlined, Vanilla neither but significant.
    expect([at("h2memory", 0).rank, at("memorybank", 0).rank, at("vanilla", 0).rank]).toEqual([1, 2, null]);
    expect([at("h2memory", 0).sig, at("memorybank", 0).sig, at("vanilla", 0).sig]).toEqual([false, false, true]);
    // Solution B-1 (column 5): MemoryBank bold, H2Memory underlined.
    expect([at("memorybank", 5).rank, at("h2memory", 5).rank]).toEqual([1, 2]);
    const tex = paperTableFile(t.db, id, "latex").body;
    expect(tex).toContain("MemoryBank & \\underline{22.00} &");
    expect(tex).toContain("& \\textbf{26.00} &");
    expect(tex).toContain("Vanilla (w/o log) & 11.00$^\\dagger$ &");
    // Each sd on the line under its mean, one size smaller (8 pt), not squeezed into the cell.
    expect(tex).toContain("\n & {\\footnotesize$\\pm$1.00} & {\\footnotesize$\\pm$1.00} &");
    // The published rows sit beside the run's, with the difference.
    expect(tex).toContain("\\multicolumn{11}{l}{\\textit{Reported in Mem-PAL, Table 2}}");
    expect(tex).toContain("H2Memory & 26.67 & 12.18 & 5.68 & 3.09 & 32.54 & 22.24 & 8.38 & 4.39 & 2.65 & 38.32 \\\\");
    expect(tex).toContain("H2Memory & +4.33 & +13.82");
    const md = tableMarkdown(t2);
    expect(md).toContain("| H2Memory | **31.00 ± 1.00** |");
    expect(md).toContain("| MemoryBank | <u>22.00 ± 2.00</u> |");
  });

  it("compiles with pdflatex as it is (skipped, saying so, without a TeX engine)", (ctx) => {
    const tex = spawnSync("pdflatex", ["--version"], { encoding: "utf8" });
    if (tex.status !== 0) {
      console.warn("paper tables: no pdflatex on this machine, so the LaTeX was not compiled (apt-get install texlive-latex-recommended)");
      ctx.skip();
    }
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pal-tex-"));
    try {
      fs.writeFileSync(path.join(dir, "t.tex"), paperTableFile(t.db, id, "latex").body);
      execFileSync("pdflatex", ["-interaction=nonstopmode", "-halt-on-error", "t.tex"], { cwd: dir, stdio: "pipe", timeout: 120_000 });
      expect(fs.statSync(path.join(dir, "t.pdf")).size).toBeGreaterThan(1000);
      const log = fs.readFileSync(path.join(dir, "t.log"), "utf8");
      expect(log).not.toMatch(/^! /m);
      // Readable as a paper prints it: nothing scaled, nothing wider than a two-column paper's text width
      // (16 cm), the table at \small (9 pt), the sd and the notes at \footnotesize (8 pt), nothing smaller.
      expect(log).not.toMatch(/Overfull \\hbox/);
      const body = paperTableFile(t.db, id, "latex").body;
      expect(body).not.toMatch(/\\resizebox|\\scalebox|\\scriptsize|\\tiny/);
      expect(body).toContain("\\begin{table*}[t]\n\\centering\n\\caption{Mem-PAL Table 2: requirement restatement and solution proposal}");
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 150_000);

  it("Table 3 says when a calibrated tie margin was applied to its W/T/L", () => {
    t.db.$client
      .prepare("UPDATE experiments SET pairwise_tie_margin = 2, pairwise_tie_margin_source = 'campaign 4, run 1' WHERE id = ?")
      .run(id);
    try {
      const t3 = experimentPaperTables(t.db, id, { table: "mem-pal-table3" }).tables[0];
      expect(t3.notes).toContain("Read at tie margin 2 (re-derived from the judges' mean scores, calibrated on campaign 4, run 1).");
    } finally {
      t.db.$client.prepare("UPDATE experiments SET pairwise_tie_margin = NULL, pairwise_tie_margin_source = NULL WHERE id = ?").run(id);
    }
  });

  it("Markdown: a name holding --> or <script> stays inside its comment and is text, not HTML (issue 30.6)", () => {
    const hostile = "x --><script>alert(1)</script><!-- | *y*";
    const before = (t.db.$client.prepare("SELECT name FROM experiments WHERE id = ?").get(id) as { name: string }).name;
    t.db.$client.prepare("UPDATE experiments SET name = ? WHERE id = ?").run(hostile, id);
    try {
      const md = paperTableFile(t.db, id, "markdown").body;
      const first = md.split("\n")[0];
      expect(first).toMatch(
        /^<!-- Experiment \d+ \(x - -&gt;&lt;script&gt;alert\(1\)&lt;\/script&gt;&lt;!- - .*\), written by PAL Studio -->$/,
      );
      // The comment closes once, at its end; no tag anywhere but the table's own <u> marks.
      expect(md.match(/-->/g)).toHaveLength(1);
      // ("<" before a space, as in "p < 0.01", opens no tag.)
      expect(md).not.toMatch(/<(?!u>|\/u>|!-- Experiment| )/);
      const [t2] = experimentPaperTables(t.db, id).tables;
      const named = { ...t2, title: "<img src=x onerror=alert(1)>", sections: [{ ...t2.sections[0], label: "a\nb <b>" }] };
      const out = tableMarkdown(named);
      expect(out).toContain("### &lt;img src=x onerror=alert(1)&gt;");
      expect(out).toContain("| *a b &lt;b&gt;* |");
      // A "<" that opens no tag is left as written (issue 44.8): the notes read "p < 0.01", not "p &lt; 0.01".
      const notes = tableMarkdown({ ...t2, notes: ["†: p < 0.01 & more; a &amp; b"] });
      expect(notes).toContain("†: p < 0.01 & more; a &amp;amp; b");
      expect(notes).not.toContain("&lt; 0.01");
    } finally {
      t.db.$client.prepare("UPDATE experiments SET name = ? WHERE id = ?").run(before, id);
    }
  });

  it("an unknown format or table is refused naming the field", () => {
    expect(() => paperTableFile(t.db, id, "docx")).toThrow(/format: "docx" is not one of latex, markdown, csv/);
    expect(() => paperTableFile(t.db, id, "csv", { table: "table9" })).toThrow(/table: "table9" is not one of/);
    expect(() => paperTableFile(t.db, id, "csv", { table: "hicupid-table3" })).toThrow(/no paper table hicupid-table3/);
  });
});

describe("HiCUPID Table 3", () => {
  const summary = (method: string, total: number) => ({
    method,
    task: "hicupid",
    runs: 1,
    metrics: Object.fromEntries(
      ["bleu", "rougeL", "persona", "schedule", "profile", "total"].map((k) => [
        k,
        { mean: k === "total" ? total : 10, sd: null, p: null },
      ]),
    ),
  });
  const methods = [
    { name: "full-history", label: "0-shot", options: { instruction: "user", shots: 0 } },
    { name: "full-history", label: "3-shot", options: { instruction: "user", shots: 3 } },
    // the RAG runs as the public scripts run them (zero/system): the paper's row, named plainly
    { name: "rag-utterance", label: "dense-k5", options: { instruction: "system", shots: 0, retriever: "dense", k: 5 } },
  ];

  it("names the preset's settings as the paper does, so every one of them gets its published row (issue 31)", () => {
    const preset = [
      ...methods,
      { name: "rag-utterance", label: "bm25-k5", options: { instruction: "system", shots: 0, retriever: "bm25", k: 5 } },
    ];
    expect(preset.map((m) => [hicupidName(m).name, hicupidName(m).row])).toEqual([
      ["0-shot", "0-shot"],
      ["3-shot", "3-shot"],
      ["Contriever", "Contriever"],
      ["BM25", "BM25"],
    ]);
    // the other placement is not the paper's setting
    expect(hicupidName({ ...preset[3], options: { ...preset[3].options, instruction: "user" } })).toMatchObject({
      name: "BM25 (user instruction)",
      row: null,
    });
    const both = hicupidTable3({
      methods,
      reference: "0-shot",
      summary: [summary("0-shot", 20)],
      pairwise: [],
      model: "x",
      splits: ["test_1", "test_2"],
    })!;
    expect(both.title).toBe("HiCUPID Table 3: personalized QA (this run: Test Sets 1 and 2; reported: Test Set 1)");
  });

  it("rows per model and method as the paper names them, compared with the paper's row of the same model", () => {
    const t = hicupidTable3({
      methods,
      reference: "0-shot",
      summary: [summary("0-shot", 20), summary("3-shot", 30), summary("dense-k5", 25)],
      pairwise: [],
      model: "Qwen2.5-7B-Instruct",
      splits: ["test_1"],
      judges: ["judge"],
    })!;
    expect(t.title).toBe("HiCUPID Table 3: personalized QA (Test Set 1)");
    expect(t.columns.map((c) => c.label)).toEqual(["BLEU (Total)", "ROUGE-L (Total)", "Persona", "Schedule", "Multi-Info", "Total"]);
    const [run, reported, diff] = t.sections;
    expect(run.rows.map((r) => [r.model, r.name, r.cells[5].value, r.cells[5].rank])).toEqual([
      ["Qwen2.5-7B-Instruct", "0-shot", 20, null],
      ["Qwen2.5-7B-Instruct", "3-shot", 30, 1],
      ["Qwen2.5-7B-Instruct", "Contriever", 25, 2],
    ]);
    // Qwen-2.5-7B's Table 3 rows (S_GPT only, as the run has one judge): 0-shot total 17, 3-shot 19.4, Contriever 21.5.
    expect(reported.label).toBe("Reported in HiCUPID, Table 3");
    expect(reported.rows.map((r) => [r.model, r.method, r.cells.map((c) => c.value)])).toEqual([
      ["Qwen-2.5-7B", "0-shot", [8.1, 18.6, 26.6, 0.0, 3.0, 17]],
      ["Qwen-2.5-7B", "3-shot", [12.5, 24.2, 24.6, 29.8, 2.1, 19.4]],
      ["Qwen-2.5-7B", "Contriever", [7.6, 18.4, 33.6, 0.2, 3.4, 21.5]],
    ]);
    expect(diff.rows.map((r) => Number(r.cells[5].value!.toFixed(1)))).toEqual([3, 10.6, 3.5]);
  });

  it("Test Set 2 reads Table 4; a model the paper does not have is compared with Llama-3.1-8B, saying so", () => {
    const t = hicupidTable3({
      methods,
      reference: "0-shot",
      summary: [summary("0-shot", 20)],
      pairwise: [],
      model: "my-model",
      splits: ["test_2"],
      judges: ["judge", "judge:llama"],
    })!;
    expect(t.title).toBe("HiCUPID Table 4: personalized QA (Test Set 2)");
    expect(t.groups.map((g) => g.label)).toEqual(["", "GPT-4o Score (S_GPT)", "Llama 3.2 Score (S_Llama)"]);
    expect(t.sections[1].rows[0]).toMatchObject({ model: "Llama-3.1-8B", method: "0-shot" });
    expect(t.sections[1].rows[0].cells.map((c) => c.value)).toEqual([8.2, 19.3, 38.6, 13.9, 3.2, 26.2, 40.6, 9.8, 8.7, 27.7]);
    expect(t.notes.join(" ")).toContain("the run's model (my-model) is not one of the paper's");
    expect(paperModelFor("gpt-4o-mini-2024-07-18")).toEqual({ model: "GPT-4o-mini", matched: true });
    expect(paperModelFor("x", "mistral-7b")).toEqual({ model: "Mistral-7B", matched: true });
  });
});

describe("LaTeX of this run only (issue 44.6)", () => {
  let t: ReturnType<typeof tempDb>;
  let id: number;
  beforeAll(() => {
    t = tempDb();
    id = seedKnownExperiment(t.db.$client as never);
  });
  afterAll(() => t.cleanup());

  it("has the run's rows and none of the published rows, differences or notes about them", () => {
    const all = paperTableFile(t.db, id, "latex").body;
    const mine = paperTableFile(t.db, id, "latex", { runOnly: true });
    expect(mine.filename).toMatch(/-run-only\.tex$/);
    expect(all).toContain("Reported in Mem-PAL, Table 2");
    expect(mine.body).not.toMatch(/Reported in|Difference|Reported rows|For reference/);
    expect(mine.body).toContain("This run");
    // The run's rows are the same lines as in the full file.
    const runLines = (s: string) => s.split("\n").filter((l) => l.startsWith("H2Memory &"))[0];
    expect(runLines(mine.body)).toBe(runLines(all));
    const csv = paperTableFile(t.db, id, "csv", { runOnly: true }).body.trim().split("\n");
    expect(csv.slice(1).every((l) => /^[^,]+,This run/.test(l))).toBe(true);
  });
});
