import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { fmeasure, lcsLength, meanRougeL, rougeL, rougeTokenize } from "./rouge";

describe("rouge_score ROUGE-L", () => {
  it("tokenizes like rouge_score without a stemmer", () => {
    expect(rougeTokenize("It's 3.5%! Ünïcode MIXED_case")).toEqual(["it", "s", "3", "5", "n", "code", "mixed", "case"]);
  });

  it("LCS-based precision, recall and F", () => {
    // target the cat sat on the mat (6), prediction the cat was on a mat (6): LCS 'the cat on mat' = 4.
    const s = rougeL("The cat sat on the mat.", "the cat was on a mat");
    expect(s.precision).toBeCloseTo(4 / 6, 15);
    expect(s.recall).toBeCloseTo(4 / 6, 15);
    expect(s.fmeasure).toBeCloseTo(4 / 6, 15);
    // Unequal lengths: target a b c d e (5), prediction a c e (3): LCS 3 → P 1, R 3/5, F = 2·1·0.6/1.6 = 0.75.
    // (In binary floating point 1.2/1.6 = 0.7499999999999999, in Python as here.)
    const t = rougeL("a b c d e", "a c e");
    expect([t.precision, t.recall, t.fmeasure]).toEqual([1, 0.6, 0.7499999999999999]);
  });

  it("empty sides score 0; several references keep the best F", () => {
    expect(rougeL("", "anything")).toEqual({ precision: 0, recall: 0, fmeasure: 0 });
    expect(rougeL("anything", "!!!")).toEqual({ precision: 0, recall: 0, fmeasure: 0 });
    expect(rougeL(["x y z", "a b c d e"], "a c e").fmeasure).toBeCloseTo(0.75, 15);
    expect(fmeasure(0, 0)).toBe(0);
    expect(meanRougeL([])).toBeNull();
    expect(
      meanRougeL([
        { references: "a b c d e", prediction: "a c e" },
        { references: "x", prediction: "x" },
      ]),
    ).toBeCloseTo(0.875, 15);
  });

  it("LCS is symmetric and bounded by the shorter length", () => {
    const toks = fc.array(fc.constantFrom("a", "b", "c", "d"), { maxLength: 25 });
    fc.assert(
      fc.property(toks, toks, (a, b) => {
        const l = lcsLength(a, b);
        expect(l).toBe(lcsLength(b, a));
        expect(l).toBeLessThanOrEqual(Math.min(a.length, b.length));
        expect(lcsLength(a, a)).toBe(a.length);
      }),
    );
  });
});
