import { describe, expect, it } from "vitest";
import { gScore } from "./gscore";
import { selectionItemScore, selectionScore, type Feedback } from "./selection";
import { countOutcomes, fairEval, flipOutcome, winTieLoseByDimension, type PairJudgment } from "./faireval";
import { abOutcome, abScore, hicupidTotal, scheduleScore } from "./hicupid-score";

describe("G-Score", () => {
  it("mean × 50", () => {
    expect(gScore([2, 1.5, 0, 0.5])).toEqual({ value: 50, n: 4 }); // mean 1.0
    expect(gScore([2, 2]).value).toBe(100);
    expect(gScore([]).value).toBeNull();
    expect(() => gScore([0.7])).toThrow(/not one of/);
  });
});

describe("selection score", () => {
  const cands: Record<string, Feedback> = { c1: "pos", c2: "pos", c3: "neg", c4: "neg", c5: "neu", c6: "neu", c7: "neu", c8: "neu" };
  it("+1 pos, −1 neg, 0 neutral; exactly two distinct known ids", () => {
    expect(selectionItemScore(["c1", "c2"], cands).score).toBe(2);
    expect(selectionItemScore(["c1", "c3"], cands).score).toBe(0);
    expect(selectionItemScore(["c3", "c4"], cands).score).toBe(-2);
    expect(selectionItemScore(["c5", "c1"], cands).score).toBe(1);
    expect(selectionItemScore(["c1"], cands)).toMatchObject({ score: null, reason: expect.stringMatching(/exactly 2/) });
    expect(selectionItemScore(["c1", "c1"], cands)).toMatchObject({ score: null, reason: expect.stringMatching(/twice/) });
    expect(selectionItemScore(["c1", "c9"], cands)).toMatchObject({ score: null, reason: expect.stringMatching(/unknown/) });
  });
  it("mean × 50 over items; invalid items count 0 or are excluded", () => {
    expect(selectionScore([2, 0, -2, 1]).value).toBe(12.5); // mean 0.25
    expect(selectionScore([2, null])).toEqual({ value: 50, n: 2, invalid: 1 });
    expect(selectionScore([2, null], { invalid: "exclude" })).toEqual({ value: 100, n: 1, invalid: 1 });
    expect(selectionScore([]).value).toBeNull();
  });
});

describe("FairEval pairwise aggregation", () => {
  const j = (order: "AB" | "BA", scoreFirst: number, scoreSecond: number): PairJudgment => ({ order, scoreFirst, scoreSecond });
  it("maps both orders back to the sides and averages six judgments", () => {
    // A first: (8,6) (7,7) (9,5); B first: (6,8) (7,7) (5,7) → A = 8+7+9+8+7+7 = 46, B = 6+7+5+6+7+5 = 36.
    const r = fairEval([j("AB", 8, 6), j("AB", 7, 7), j("AB", 9, 5), j("BA", 6, 8), j("BA", 7, 7), j("BA", 5, 7)])!;
    expect(r.outcome).toBe("Win");
    expect(r.meanA).toBeCloseTo(46 / 6, 15);
    expect(r.meanB).toBe(6);
    expect(r.complete).toBe(true);
  });
  it("equal averages tie; a margin widens the tie", () => {
    const even = [j("AB", 7, 6), j("AB", 7, 7), j("AB", 7, 7), j("BA", 7, 6), j("BA", 7, 7), j("BA", 7, 7)];
    expect(fairEval(even)!.outcome).toBe("Tie"); // A 41, B 41
    const close = [j("AB", 8, 7), j("AB", 7, 7), j("AB", 7, 7), j("BA", 7, 7), j("BA", 7, 7), j("BA", 7, 7)];
    // A 43, B 42: diff 1/6 ≈ 0.167.
    expect(fairEval(close)!.outcome).toBe("Win");
    expect(fairEval(close, { margin: 0.2 })!.outcome).toBe("Tie");
    expect(fairEval(close, { margin: 0.1 })!.outcome).toBe("Win");
    expect(fairEval(close, { margin: 1 / 6 })!.outcome).toBe("Tie"); // |diff| ≤ margin ties
    const lose = [j("BA", 9, 2)];
    expect(fairEval(lose)).toMatchObject({ outcome: "Lose", complete: false, orders: { AB: 0, BA: 1 } });
    expect(fairEval([])).toBeNull();
  });
  it("counts Win/Tie/Lose per dimension", () => {
    expect(countOutcomes(["Win", "Win", "Tie", "Lose"])).toEqual({ win: 2, tie: 1, lose: 1, n: 4 });
    expect(
      winTieLoseByDimension([
        { dimension: "requirement", outcome: "Win" },
        { dimension: "preference", outcome: "Tie" },
        { dimension: "requirement", outcome: "Lose" },
      ]),
    ).toEqual({ requirement: { win: 1, tie: 0, lose: 1, n: 2 }, preference: { win: 0, tie: 1, lose: 0, n: 1 } });
    expect(flipOutcome("Win")).toBe("Lose");
  });
});

describe("HiCUPID scores", () => {
  it("A/B/Tie with the model's slot recorded", () => {
    expect(abOutcome("A", "A")).toBe("win");
    expect(abOutcome("A", "B")).toBe("lose");
    expect(abOutcome("Tie", "B")).toBe("tie");
    // 1 win, 2 ties, 1 loss of 4 → 100 × (1 + 0.5·2)/4 = 50.
    expect(
      abScore([
        { verdict: "B", modelSlot: "B" },
        { verdict: "Tie", modelSlot: "A" },
        { verdict: "Tie", modelSlot: "B" },
        { verdict: "B", modelSlot: "A" },
      ]),
    ).toEqual({ score: 50, win: 1, tie: 2, lose: 1, n: 4 });
    expect(scheduleScore(["YES", "NO", "YES", "YES"])).toEqual({ score: 75, yes: 3, no: 1, n: 4 });
  });
  it("weighted Total reproduces HiCUPID Table 3", () => {
    // GPT-4o-mini 0-shot, GPT-4o judge: persona 42.1, schedule 9.5, multi-info 4.4 → Total 28.0.
    // 42.1·25/40 + (9.5/2)·10/40 + 4.4·5/40 = 26.3125 + 1.1875 + 0.55 = 28.05.
    expect(hicupidTotal({ persona: 42.1, schedule: 9.5, profile: 4.4 })).toBeCloseTo(28.05, 12);
    // Llama-3.1-8B SFT+DPO: 49.1, 98.6, 14.5 → 30.6875 + 12.325 + 1.8125 = 44.825 (Table 3: 44.8).
    expect(hicupidTotal({ persona: 49.1, schedule: 98.6, profile: 14.5 })).toBeCloseTo(44.825, 12);
    // The reference itself: 50 / 100 / 50 → 50.
    expect(hicupidTotal({ persona: 50, schedule: 100, profile: 50 })).toBe(50);
    expect(hicupidTotal({ persona: 50, schedule: null, profile: 50 })).toBeNull();
  });
});
