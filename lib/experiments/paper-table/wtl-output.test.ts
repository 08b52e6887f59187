/** W/T/L per run in `pal run`'s text output and the results CSV: the mean ± sd, and each run's counts. */
import { describe, expect, it } from "vitest";
import { resultsTable } from "../format";
import { resultsCsv } from "../export";
import type { ExperimentResults } from "../results";
import { summarizePairs } from "./wtl";

const results = (runs: Array<[number, number, number]>): ExperimentResults => ({
  experiment: 1,
  status: "done",
  reference: "h2memory",
  results: [],
  pairwise: summarizePairs(
    runs.map(([win, tie, lose], replicate) => ({ a: "h2memory", b: "vanilla", dimension: "requirement", replicate, win, tie, lose })),
  ),
  pairwiseTieMargin: null,
  summary: [],
  ledger: { requests: 0, calls: 0, cacheHits: 0, promptTokens: 0, completionTokens: 0 } as ExperimentResults["ledger"],
  ledgerByMethod: {},
  memoryBuild: { requests: 0, calls: 0, cacheHits: 0, promptTokens: 0, completionTokens: 0 } as ExperimentResults["ledger"],
  memoryBuildByMethod: {},
});

describe("W/T/L per run in the exports", () => {
  it("three runs: mean ± sd over the runs (9 topics, not 27), then each run", () => {
    const r = results([
      [5, 1, 3],
      [6, 0, 3],
      [4, 2, 3],
    ]);
    expect(resultsTable(r)).toContain(
      "h2memory\tvanilla\trequirement\t5.00 ± 1.00\t1.00 ± 1.00\t3.00 ± 0.00\t9\t3\t1.000\t5/1/3, 6/0/3, 4/2/3",
    );
    const csv = resultsCsv(r).split("\n");
    expect(csv).toContain("dialogue,h2memory vs vanilla,requirement.win,3,5,1,1,h2memory");
    // The third run, counted from 1 as everywhere a person reads runs (issue 44.5).
    expect(csv).toContain("dialogue,h2memory vs vanilla,requirement.lose.run3,1,3,,1,h2memory");
  });

  it("one run: the counts as they are", () => {
    expect(resultsTable(results([[7, 1, 2]]))).toContain("h2memory\tvanilla\trequirement\t7\t1\t2\t10\t1\t0.180\t7/1/2");
  });
});

describe("pal run's results table", () => {
  it("has a column for every method's metric, a dash where a method has none (vanilla retrieves nothing)", () => {
    const m = (mean: number) => ({ mean, sd: null, p: null });
    const r: ExperimentResults = {
      ...results([]),
      summary: [
        { method: "vanilla", task: "longmemeval", runs: 1, metrics: { accuracy: m(0.5) } },
        { method: "turn-rag", task: "longmemeval", runs: 1, metrics: { accuracy: m(0.75), "retrieval.recallAny": m(1) } },
      ] as ExperimentResults["summary"],
    };
    const table = resultsTable(r);
    expect(table).toContain("method\truns\taccuracy\tretrieval.recallAny");
    expect(table).toContain("vanilla\t1\t0.50\t—");
    expect(table).toContain("turn-rag\t1\t0.75\t1.00");
  });
});
