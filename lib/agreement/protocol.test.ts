import { describe, expect, it } from "vitest";
import { majorityVote } from "./majority";
import { bootstrapCI, percentile } from "./bootstrap";
import { mulberry32 } from "@/lib/random";
import { judgeVsHuman, type JudgeHumanItem } from "./judge-vs-human";
import { landisKoch, mcHugh } from "./interpret";

describe("majority vote", () => {
  it("a clear majority needs no rule", () => {
    expect(majorityVote(["W", "W", "L"])).toMatchObject({ label: "W", rule: "majority", tied: false, counts: { W: 2, L: 1 } });
    expect(majorityVote([null, undefined])).toMatchObject({ label: null, tied: false });
  });
  it("ties follow the explicit rule, which is recorded", () => {
    expect(majorityVote(["Win", "Lose"])).toMatchObject({ label: "Tie", rule: "tie", tied: true, candidates: ["Win", "Lose"] });
    expect(majorityVote(["Win", "Lose"], { tieRule: "tie", tieLabel: "T" }).label).toBe("T");
    expect(majorityVote(["Lose", "Win"], { tieRule: "first", order: ["Win", "Tie", "Lose"] })).toMatchObject({
      label: "Win",
      rule: "first",
    });
    expect(majorityVote(["Win", "Lose"], { tieRule: "adjudicate" })).toMatchObject({ label: null, needsAdjudication: true });
    expect(majorityVote(["Win", "Lose"], { tieRule: "adjudicate", adjudicated: "Lose" })).toMatchObject({
      label: "Lose",
      rule: "adjudicate",
    });
    expect(majorityVote(["Win", "Lose"], { tieRule: "none" }).label).toBeNull();
  });
});

describe("bootstrap", () => {
  it("is reproducible for a seed and percentile-based", () => {
    const xs = Array.from({ length: 50 }, (_, i) => i % 7);
    const mean = (s: readonly number[]) => s.reduce((a, b) => a + b, 0) / s.length;
    const a = bootstrapCI(xs, mean, { iterations: 500, seed: 42 });
    const b = bootstrapCI(xs, mean, { iterations: 500, seed: 42 });
    const c = bootstrapCI(xs, mean, { iterations: 500, seed: 43 });
    expect(a).toEqual(b);
    expect(a.lower).not.toBe(c.lower);
    expect(a.value).toBe(mean(xs));
    expect(a.lower!).toBeLessThan(a.value!);
    expect(a.upper!).toBeGreaterThan(a.value!);
    expect(a.valid).toBe(500);
  });
  it("percentile interpolates linearly (numpy's default)", () => {
    expect(percentile([1, 2, 3, 4], 0.5)).toBe(2.5);
    expect(percentile([1, 2, 3, 4, 5], 0.025)).toBeCloseTo(1.1, 15);
  });
  it("mulberry32 is deterministic and in [0, 1)", () => {
    const r1 = mulberry32(7);
    const r2 = mulberry32(7);
    for (let i = 0; i < 100; i++) {
      const x = r1();
      expect(x).toBe(r2());
      expect(x).toBeGreaterThanOrEqual(0);
      expect(x).toBeLessThan(1);
    }
  });
  it("an interval over mostly undefined resamples is null with a reason", () => {
    const r = bootstrapCI([1, 2, 3], () => null, { iterations: 10 });
    expect(r).toMatchObject({ lower: null, upper: null, valid: 0, reason: expect.any(String) });
    expect(bootstrapCI([], () => 1).reason).toBe("no items");
  });
});

describe("Mem-PAL judge-vs-human protocol", () => {
  // Two humans per item, aggregated by vote; a split (Win vs Lose) becomes a Tie.
  const items: JudgeHumanItem[] = [
    { id: 1, llm: "Win", humans: ["Win", "Win"] }, // Win / Win
    { id: 2, llm: "Win", humans: ["Win", "Lose"] }, // Win / Tie (split)
    { id: 3, llm: "Tie", humans: ["Tie", "Tie"] }, // both tie → dropped
    { id: 4, llm: "Lose", humans: ["Lose", "Lose"] }, // Lose / Lose
    { id: 5, llm: "Win", humans: ["Lose", "Lose"] }, // Win / Lose
    { id: 6, llm: "Tie", humans: ["Win", "Win"] }, // Tie / Win
    { id: 7, llm: "Win", humans: ["Win", null] }, // Win / Win (one human)
    { id: 8, llm: "Lose", humans: [null, null] }, // unresolved
  ];
  const categories = ["Win", "Tie", "Lose"];

  it("drops items both call a tie, then Fleiss and Cohen over (LLM, human majority)", () => {
    const r = judgeVsHuman(items, { categories });
    expect(r.unresolved).toEqual([8]);
    expect(r.droppedTies).toBe(1);
    expect(r.n).toBe(6);
    // Kept: (W,W) (W,T) (L,L) (W,L) (T,W) (W,W). LLM rows [4,1,1], human columns [3,1,2] (W,T,L).
    // Cohen: p_o = 3/6, p_e = (4·3 + 1·1 + 1·2)/36 = 15/36 → κ = (1/2 − 5/12)/(7/12) = 1/7.
    expect(r.cohenKappa.value).toBeCloseTo(1 / 7, 15);
    // Fleiss (two raters): P̄ = 1/2; pooled W 7, T 2, L 3 of 12 → P̄e = (49 + 4 + 9)/144 = 31/72 → κ = 5/41.
    expect(r.fleissKappa.value).toBeCloseTo(5 / 41, 15);
    expect(r.percentAgreement).toBe(0.5);
    expect(r.disagreements.map((d) => d.id)).toEqual([2, 5, 6]);
    expect(r.table.counts).toEqual([
      [2, 1, 1],
      [1, 1, 0],
      [0, 0, 1],
    ]);
    expect(r.llmCounts).toEqual({ Win: 4, Tie: 2, Lose: 1 });
    expect(r.humanCounts).toEqual({ Win: 3, Tie: 2, Lose: 2 });
    expect(r.humanLabels.find((h) => h.id === 2)).toMatchObject({ label: "Tie", rule: "tie", tied: true });
  });

  it("the stricter variant drops items either side calls a tie", () => {
    const r = judgeVsHuman(items, { categories, variant: "either" });
    // Kept: (W,W) (L,L) (W,L) (W,W). Cohen: p_o = 3/4, p_e = (3·2 + 1·2)/16 = 1/2 → 1/2.
    // Fleiss: P̄ = 3/4; pooled W 5, L 3 of 8 → P̄e = 34/64 → (48/64 − 34/64)/(30/64) = 7/15.
    expect(r.n).toBe(4);
    expect(r.droppedTies).toBe(3);
    expect(r.cohenKappa.value).toBeCloseTo(0.5, 15);
    expect(r.fleissKappa.value).toBeCloseTo(7 / 15, 15);
  });

  it("reports the plain kappa over every resolved item", () => {
    // 7 items: rows [4,2,1], columns [3,2,2]; p_o = 4/7, p_e = (12 + 4 + 2)/49 → κ = (28 − 18)/(49 − 18) = 10/31.
    expect(judgeVsHuman(items, { categories }).plain.cohenKappa.value).toBeCloseTo(10 / 31, 15);
  });

  it("all-agreeing ties leave nothing: null with reasons", () => {
    const r = judgeVsHuman([{ id: "a", llm: "Tie", humans: ["Tie", "Tie"] }]);
    expect(r.n).toBe(0);
    expect(r.fleissKappa).toMatchObject({ value: null, reason: expect.any(String) });
    expect(r.cohenKappa).toMatchObject({ value: null, reason: expect.any(String) });
  });
});

describe("readings", () => {
  it("Landis–Koch and McHugh bands", () => {
    expect(landisKoch(0.54)).toBe("moderate"); // Mem-PAL's requirement-dimension kappa
    expect(landisKoch(0.62)).toBe("substantial"); // and preference
    expect(landisKoch(null)).toBeNull();
    expect(mcHugh(0.62)).toBe("moderate");
  });
});
