import { describe, expect, it } from "vitest";
import { signTest, summarizePairs, type PairRunCounts } from "./wtl";

const run = (replicate: number, win: number, tie: number, lose: number, dimension = "requirement"): PairRunCounts => ({
  a: "h2memory",
  b: "vanilla",
  dimension,
  replicate,
  win,
  tie,
  lose,
});

describe("Win/Tie/Lose per run", () => {
  it("three runs of 9 topics: the mean counts sum to the 9 topics of one run, sd over runs, each run kept", () => {
    // Worked by hand: W 5, 6, 4 → mean 5, sd √((0 + 1 + 1) / 2) = 1; T 1, 0, 2 → 1 ± 1; L 3, 3, 3 → 3 ± 0.
    const [row] = summarizePairs([run(2, 4, 2, 3), run(0, 5, 1, 3), run(1, 6, 0, 3)]);
    expect(row).toMatchObject({
      a: "h2memory",
      b: "vanilla",
      runs: 3,
      topics: 9,
      win: 5,
      tie: 1,
      lose: 3,
      sd: { win: 1, tie: 1, lose: 0 },
    });
    expect(row.win + row.tie + row.lose).toBe(9);
    expect(row.perRun.map((r) => [r.replicate, r.win, r.tie, r.lose])).toEqual([
      [0, 5, 1, 3],
      [1, 6, 0, 3],
      [2, 4, 2, 3],
    ]);
    // Sign tests by hand: 5 vs 3 → 2·(1+8+28+56)/256; 6 vs 3 → 2·(1+9+36+84)/512; 4 vs 3 → 2·64/128 = 1 (capped).
    expect(row.perRun.map((r) => r.p)).toEqual([186 / 256, 260 / 512, 1]);
    expect(row.p).toBe(1);
  });

  it("one run: the counts themselves, no sd; dimensions apart", () => {
    const rows = summarizePairs([run(0, 10, 0, 0), run(0, 7, 1, 2, "preference")]);
    expect(rows.map((r) => [r.dimension, r.win, r.tie, r.lose, r.sd, r.topics])).toEqual([
      ["requirement", 10, 0, 0, null, 10],
      ["preference", 7, 1, 2, null, 10],
    ]);
    expect(rows[0].p).toBe(2 / 1024); // 10 wins, no loss
  });

  it("the sign test has no value without wins or losses", () => {
    expect(signTest(0, 0)).toBeNull();
    expect(signTest(3, 3)).toBe(1);
  });
});
