/** The published rows equal the papers: each value against the papers' own table lines (fixtures/paper-tables/). */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { MEM_PAL_TABLE11, PUBLISHED } from "./published";

const dir = path.resolve(import.meta.dirname, "../../../fixtures/paper-tables");
const lines = (f: string) =>
  fs
    .readFileSync(path.join(dir, f), "utf8")
    .split("\n")
    .map((l) => l.replace(/\u00a0/g, " "))
    .filter((l) => l.trim());

// The paper's row names → the methods of the registry they stand for.
const MEM_PAL_ROWS: Record<string, string> = {
  "Vanilla (w/o log)": "vanilla",
  "Vanilla (with log)": "vanilla-log",
  "Turn-level RAG": "turn-rag",
  "Session-level RAG": "session-rag",
  "RecurSum (wang2025recursum)": "recursum",
  "ConditionMem (yuan2025conditionmem)": "conditionmem",
  "MemoryBank (zhong2024memorybank)": "memorybank",
  RecurSum: "recursum",
  ConditionMem: "conditionmem",
  MemoryBank: "memorybank",
  "H2Memory (ours)": "h2memory",
  "H2Memory (w/o MGM_{G})": "h2memory-no-graph",
  "H2Memory (w/o MBM_{B})": "h2memory-no-background",
  "H2Memory (w/o MTM_{T})": "h2memory-no-topic",
  "H2Memory (w/o MPM_{P})": "h2memory-no-principle",
};

describe("the papers' published rows", () => {
  it("Mem-PAL Table 2: all 12 rows, 10 values each", () => {
    const paper = lines("mem-pal-table2.txt").map((l) => {
      const words = l.trim().split(" ");
      return { method: MEM_PAL_ROWS[words.slice(0, -10).join(" ")], values: words.slice(-10).map(Number) };
    });
    expect(paper).toHaveLength(12);
    expect(PUBLISHED.memPalTable2.rows).toEqual(paper);
  });

  it("Mem-PAL Table 3: the five baselines, W / T / L per dimension, 826 topics each", () => {
    const paper = lines("mem-pal-table3.txt").map((l) => {
      const m = /^(.*?) (\d+) \/ (\d+) \/ (\d+) (\d+) \/ (\d+) \/ (\d+)$/.exec(l.trim())!;
      return { method: MEM_PAL_ROWS[m[1]], values: m.slice(2).map(Number) };
    });
    expect(PUBLISHED.memPalTable3.rows).toEqual(paper);
    for (const r of PUBLISHED.memPalTable3.rows) {
      expect(r.values.slice(0, 3).reduce((a, b) => a + b)).toBe(826);
      expect(r.values.slice(3).reduce((a, b) => a + b)).toBe(826);
    }
  });

  it.each([
    ["hicupid-table3.txt", PUBLISHED.hicupidTable3],
    ["hicupid-table4.txt", PUBLISHED.hicupidTable4],
  ])("HiCUPID %s: 23 rows (4 models), 10 values each, bold marks dropped", (file, table) => {
    let model = "";
    const paper = lines(file)
      .map((l) => l.split("\t"))
      .filter((f) => f.length >= 12 && f[1])
      .map((f) => {
        if (f[0]) model = f[0];
        return { model, method: f[1], values: f.slice(2, 12).map((x) => Number(x.replace(/<\/?b>/g, ""))) };
      });
    expect(paper).toHaveLength(23);
    expect(table.rows).toEqual(paper);
  });

  it("Mem-PAL Table 10 (Appendix D, DeepSeek-V3.1): six methods, G-Score and S-Score", () => {
    const paper = lines("mem-pal-table10.txt").map((l) => {
      const words = l.trim().split(" ");
      return { method: MEM_PAL_ROWS[words.slice(0, -2).join(" ")], values: words.slice(-2).map(Number) };
    });
    expect(paper).toHaveLength(6);
    expect(PUBLISHED.memPalTable10.rows).toEqual(paper);
  });

  it("Mem-PAL Table 11 (Appendix D): Evaluation-LLM and Human W / T / L per dimension, 80 topics each", () => {
    const [llm, human] = lines("mem-pal-table11.txt").map((l) => {
      const n = l.match(/\d+/g)!.map(Number);
      const wtl = (i: number) => ({ Win: n[i], Tie: n[i + 1], Lose: n[i + 2] });
      return { requirement: wtl(0), preference: wtl(3) };
    });
    for (const d of ["requirement", "preference"] as const) {
      expect(MEM_PAL_TABLE11.dimensions[d].judge).toEqual(llm[d]);
      expect(MEM_PAL_TABLE11.dimensions[d].human).toEqual(human[d]);
      for (const x of [llm[d], human[d]]) expect(x.Win + x.Tie + x.Lose).toBe(MEM_PAL_TABLE11.items);
    }
  });

  it("HiCUPID Table A2 (Appendix A9): 6 settings × BM25 and Contriever, each Total the caption's weighted average", () => {
    const paper = lines("hicupid-tableA2.txt").flatMap((l) => {
      const [unit, k, ...v] = l.split("\t");
      return (["BM25", "Contriever"] as const).map((r, i) => ({
        method: `${r}, ${unit.toLowerCase()}, k = ${k}`,
        values: v.slice(i * 5, i * 5 + 5).map(Number),
      }));
    });
    expect(paper).toHaveLength(12);
    expect([...PUBLISHED.hicupidTableA2.rows].sort((a, b) => a.method.localeCompare(b.method))).toEqual(
      paper.sort((a, b) => a.method.localeCompare(b.method)),
    );
    for (const {
      values: [p, s, mp, mf, total],
    } of paper)
      expect(Math.abs(p * (25 / 40) + s * (10 / 40) + ((mp + mf) / 2) * (5 / 40) - total)).toBeLessThan(0.1);
  });
});
