/** Leave-one-out agreement, drift and the warnings, on cases worked by hand. */
import { describe, expect, it } from "vitest";
import { agreementWithOthers, drift, DRIFT_MIN_PER_HALF, median, type RaterItem } from "./annotators";
import { agreementReport } from "./report";
import { constantJudgeWarning, reportWarnings } from "./warnings";

const WL = ["W", "L"];
const it_ = (own: string, ...others: string[]): RaterItem => ({ own, others });

describe("agreement with the others (leave-one-out)", () => {
  it("pairs the annotator with the others' majority; split others drop the item", () => {
    // Pairs (own, others): (W,W) (W,L) (L,L) (L,L); the 5th item's others split W/L → left out.
    // p_o = 3/4; own W 2 L 2, others W 1 L 3 → p_e = (2·1 + 2·3)/16 = 1/2 → κ = (3/4 − 1/2)/(1/2) = 1/2.
    const r = agreementWithOthers([it_("W", "W"), it_("W", "L"), it_("L", "L"), it_("L", "L"), it_("W", "W", "L")], WL);
    expect(r.n).toBe(4);
    expect(r.percentAgreement).toBe(0.75);
    expect(r.kappa).toBeCloseTo(0.5, 15);
  });
  it("an annotator who gives one value throughout: undefined (constant ratings), not 0", () => {
    const r = agreementWithOthers([it_("W", "W"), it_("W", "L"), it_("W", "L")], WL);
    expect(r.kappa).toBeNull();
    expect(r.reason).toMatch(/^undefined \(constant ratings\): the first rater/);
  });
  it("no item with a clear majority among the others: undefined with the reason", () => {
    expect(agreementWithOthers([it_("W")], WL)).toMatchObject({ kappa: null, n: 0, reason: expect.stringMatching(/clear majority/) });
  });
});

describe("drift", () => {
  it("the first half of their items against the second", () => {
    // First 4: all agree, both categories used → κ = 1. Last 4: (W,L) (L,W) (W,W) (L,L): p_o = 1/2, marginals 2/2 both → p_e = 1/2 → κ = 0.
    const items = [it_("W", "W"), it_("L", "L"), it_("W", "W"), it_("L", "L"), it_("W", "L"), it_("L", "W"), it_("W", "W"), it_("L", "L")];
    const d = drift(items, WL);
    expect(d.first).toMatchObject({ kappa: 1, n: 4 });
    expect(d.second).toMatchObject({ kappa: 0, n: 4 });
    expect(d.change).toBe(-1);
    // An odd count: the first half is the smaller.
    expect(drift(items.slice(0, 5), WL).first.n).toBe(2);
  });
  it("on a handful of items (issue 34.5: 1.00 → 0.40 on 2 and 3) it carries n per half and an interval, and is not flagged", () => {
    const items = [it_("W", "W"), it_("L", "L"), it_("W", "L"), it_("L", "L"), it_("W", "W")];
    const d = drift(items, WL);
    expect(d.first.n).toBe(2);
    expect(d.second.n).toBe(3);
    expect(d.flagged).toBe(false);
  });
  it("a real fall on enough items is flagged, with an interval below zero; the same fall on too few is not", () => {
    // First half: 40 items all agreeing (both categories); second half: 40 items, half of them flipped.
    const agree = Array.from({ length: 40 }, (_, i) => (i % 2 ? it_("W", "W") : it_("L", "L")));
    const noisy = Array.from({ length: 40 }, (_, i) =>
      i % 4 === 0 ? it_("W", "L") : i % 4 === 1 ? it_("L", "W") : i % 2 ? it_("W", "W") : it_("L", "L"),
    );
    const d = drift([...agree, ...noisy], WL);
    expect(d.first).toMatchObject({ kappa: 1, n: 40 });
    expect(d.second.kappa).toBeCloseTo(0, 10);
    expect(d.ci![0]).toBeLessThan(d.ci![1]);
    expect(d.ci![1]).toBeLessThan(0);
    expect(d.flagged).toBe(true);
    // Seeded: the same interval every time.
    expect(drift([...agree, ...noisy], WL).ci).toEqual(d.ci);
    const few = DRIFT_MIN_PER_HALF - 2;
    const small = drift([...agree.slice(0, few), ...noisy.slice(0, few)], WL);
    expect(small.change).toBeLessThan(-0.2);
    expect(small.flagged).toBe(false);
  });
  it("median seconds", () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([])).toBeNull();
  });
});

describe("warnings", () => {
  const report = (pairs: Array<[string, string]>) =>
    agreementReport({ scale: "nominal", categories: ["x", "y"], items: pairs.map(([a, b], i) => ({ id: i, ratings: { a, b } })) });
  const context = (pairs: Array<[string, string]>) => {
    const distribution: Record<string, number> = { x: 0, y: 0 };
    const perRater: Record<string, Record<string, number>> = { a: { x: 0, y: 0 }, b: { x: 0, y: 0 } };
    for (const [a, b] of pairs) {
      distribution[a]++;
      distribution[b]++;
      perRater.a[a]++;
      perRater.b[b]++;
    }
    return { paired: pairs.length, distribution, perRater };
  };

  it("the prevalence paradox: 90% agreement, κ = −1/19", () => {
    // 36 items (x, x), 2 (x, y), 2 (y, x). p_o = 0.9; pooled x 76, y 4 of 80 → P̄e = 0.9025 + 0.0025 = 0.905;
    // κ = (0.9 − 0.905)/(1 − 0.905) = −1/19.
    const pairs: Array<[string, string]> = [
      ...Array.from({ length: 36 }, (): [string, string] => ["x", "x"]),
      ["x", "y"],
      ["x", "y"],
      ["y", "x"],
      ["y", "x"],
    ];
    const r = report(pairs);
    expect(r.percentAgreement).toBeCloseTo(0.9, 15);
    expect(r.fleissKappa).toBeCloseTo(-1 / 19, 12);
    const w = reportWarnings("d", r, context(pairs));
    expect(w.map((x) => x.kind)).toEqual(["prevalence-paradox"]);
    expect(w[0].message).toMatch(/agree on 90% of pairs but Fleiss' κ is -0\.05: "x" makes up 95% of the labels/);
  });

  it("n < 30 and a constant rater", () => {
    const pairs: Array<[string, string]> = [
      ["x", "x"],
      ["y", "x"],
      ["x", "x"],
      ["y", "x"],
    ];
    const w = reportWarnings("d", report(pairs), context(pairs));
    expect(w.map((x) => x.kind)).toEqual(["small-n", "constant-rater"]);
    expect(w[0].message).toMatch(/only 4 items/);
    expect(w[1].message).toMatch(/^b gave "x" on all 4 items: their kappas are undefined \(constant ratings\)/);
  });

  it("Fleiss over a subset says how many items it used", () => {
    const r = agreementReport({
      scale: "nominal",
      categories: ["x", "y"],
      items: [
        { id: 1, ratings: { a: "x", b: "x" } },
        { id: 2, ratings: { a: "y", b: "y" } },
        { id: 3, ratings: { a: "x" } },
      ],
    });
    const w = reportWarnings("d", r, { paired: 2, distribution: { x: 3, y: 2 }, perRater: {} });
    expect(w.find((x) => x.kind === "fleiss-subset")?.message).toBe(
      "Fleiss' κ is over the 2 of 3 items with all 2 ratings (1 with fewer left out); Krippendorff's α uses every item",
    );
  });

  it("a judge with one value throughout", () => {
    expect(constantJudgeWarning("d", "judge-x", ["Tie", "Tie", "Tie"])?.message).toMatch(/judge judge-x gave "Tie" on all 3 items/);
    expect(constantJudgeWarning("d", "judge-x", ["Tie", "Win"])).toBeNull();
  });
});
