import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { cohenKappa, cohenKappaTable } from "./cohen";
import { fleissKappa, fleissKappaCounts } from "./fleiss";
import { percentAgreement } from "./percent";

describe("Fleiss' kappa", () => {
  it("Fleiss (1971) / Wikipedia example: 10 subjects, 14 raters, 5 categories → 0.210", () => {
    const counts = [
      [0, 0, 0, 0, 14],
      [0, 2, 6, 4, 2],
      [0, 0, 3, 5, 6],
      [0, 3, 9, 2, 0],
      [2, 2, 8, 1, 1],
      [7, 7, 0, 0, 0],
      [3, 2, 6, 3, 0],
      [2, 5, 3, 2, 2],
      [6, 5, 2, 1, 0],
      [0, 2, 2, 3, 7],
    ];
    const r = fleissKappaCounts(counts);
    // P̄ = 0.378, P̄e = 0.213 (p_j = .143 .200 .279 .150 .229), κ = 4211/20059 = 0.20993...
    expect(r.observed).toBeCloseTo(0.378021978021978, 14);
    expect(r.expected).toBeCloseTo(0.21275510204081632, 14);
    expect(r.value).toBeCloseTo(0.21, 2);
    expect(r.value).toBeCloseTo(4211 / 20059, 14);
  });
  it("from rating lists; null when items differ in ratings or one category is used", () => {
    // Items (a,a,b) (b,b,b) (a,b,b): P_i = 1/3, 1, 1/3 → P̄ = 5/9; p_a = 3/9, p_b = 6/9 → P̄e = 5/9 → κ = 0.
    expect(
      fleissKappa([
        ["a", "a", "b"],
        ["b", "b", "b"],
        ["a", "b", "b"],
      ]).value,
    ).toBeCloseTo(0, 15);
    expect(
      fleissKappa([
        ["a", "b"],
        ["a", "b", "b"],
      ]),
    ).toMatchObject({ value: null, reason: expect.stringMatching(/different numbers/) });
    expect(
      fleissKappa([
        ["a", "a"],
        ["a", "a"],
      ]),
    ).toMatchObject({ value: null, reason: expect.stringMatching(/same category/) });
    expect(fleissKappa([["a"], ["b"]])).toMatchObject({ value: null, reason: expect.stringMatching(/fewer than two/) });
  });
});

describe("Cohen's kappa", () => {
  // Rater 1 rows × rater 2 columns on an ordered 1..3 scale, N = 20.
  //        1  2  3 | r
  //   1 [  5, 2, 0 ]  7
  //   2 [  1, 6, 1 ]  8
  //   3 [  0, 2, 3 ]  5
  //   c    6 10  4
  const table = [
    [5, 2, 0],
    [1, 6, 1],
    [0, 2, 3],
  ];
  it("unweighted: p_o = 14/20, p_e = (42 + 80 + 20)/400 = 0.355 → κ = 0.345/0.645 = 23/43", () => {
    expect(cohenKappaTable(table).value).toBeCloseTo(23 / 43, 15);
  });
  it("linear weights |i−j|/2: observed 3, expected 7.9 (E_ij = r_i c_j / 20) → 1 − 3/7.9 = 49/79", () => {
    // Off-diagonal E: (1,2) 3.5, (1,3) 1.4, (2,1) 2.4, (2,3) 1.6, (3,1) 1.5, (3,2) 2.5.
    // Observed Σ w n = .5(2 + 1 + 1 + 2) = 3; expected Σ w E = .5(3.5 + 2.4 + 1.6 + 2.5) + 1.4 + 1.5 = 7.9.
    expect(cohenKappaTable(table, "linear").value).toBeCloseTo(49 / 79, 15);
  });
  it("quadratic weights ((i−j)/2)²: observed 1.5, expected 5.4 → 13/18", () => {
    expect(cohenKappaTable(table, "quadratic").value).toBeCloseTo(13 / 18, 15);
  });
  it("from label pairs, with the declared category order", () => {
    const pairs: Array<[number, number]> = [];
    table.forEach((row, i) =>
      row.forEach((n, j) => {
        for (let k = 0; k < n; k++) pairs.push([i + 1, j + 1]);
      }),
    );
    expect(cohenKappa(pairs, { categories: [1, 2, 3], weights: "linear" }).value).toBeCloseTo(49 / 79, 15);
    expect(cohenKappa(pairs, { categories: [1, 2, 3] }).n).toBe(20);
  });
  it("null with a reason when both raters use one category, or nothing overlaps", () => {
    expect(
      cohenKappa([
        ["x", "x"],
        ["x", "x"],
      ]),
    ).toMatchObject({ value: null, reason: expect.stringMatching(/same category/) });
    expect(cohenKappa([])).toMatchObject({ value: null, n: 0 });
  });
});

describe("percent agreement", () => {
  it("mean share of agreeing pairs over items with 2+ ratings", () => {
    // (a,a,a) → 3/3, (a,a,b) → 1/3, (a,b) → 0, (a) skipped → (1 + 1/3 + 0)/3 = 4/9.
    expect(percentAgreement([["a", "a", "a"], ["a", "a", "b"], ["a", "b"], ["a"]])).toEqual({ value: 4 / 9, n: 3 });
    expect(percentAgreement([["a"]]).value).toBeNull();
  });
});

describe("properties", () => {
  const labels = fc.array(fc.constantFrom(1, 2, 3, 4), { minLength: 2, maxLength: 40 });
  it("identical raters: Cohen (all weightings) and Fleiss are 1 when two or more categories are used", () => {
    fc.assert(
      fc.property(labels, (xs) => {
        fc.pre(new Set(xs).size > 1);
        const pairs = xs.map((x) => [x, x] as [number, number]);
        for (const weights of ["none", "linear", "quadratic"] as const) {
          expect(cohenKappa(pairs, { categories: [1, 2, 3, 4], weights }).value).toBe(1);
        }
        expect(fleissKappa(xs.map((x) => [x, x, x])).value).toBe(1);
        expect(percentAgreement(xs.map((x) => [x, x])).value).toBe(1);
      }),
    );
  });
  it("kappas stay in [−1, 1] and percent agreement in [0, 1]", () => {
    fc.assert(
      fc.property(labels, labels, (a, b) => {
        const n = Math.min(a.length, b.length);
        const pairs = a.slice(0, n).map((x, i) => [x, b[i]] as [number, number]);
        for (const weights of ["none", "linear", "quadratic"] as const) {
          const k = cohenKappa(pairs, { categories: [1, 2, 3, 4], weights }).value;
          if (k !== null) {
            expect(k).toBeGreaterThanOrEqual(-1 - 1e-12);
            expect(k).toBeLessThanOrEqual(1 + 1e-12);
          }
        }
        const f = fleissKappa(pairs).value;
        if (f !== null) expect(f).toBeLessThanOrEqual(1 + 1e-12);
        const p = percentAgreement(pairs).value!;
        expect(p).toBeGreaterThanOrEqual(0);
        expect(p).toBeLessThanOrEqual(1);
      }),
    );
  });
  it("Cohen's kappa is symmetric in the two raters", () => {
    fc.assert(
      fc.property(labels, labels, (a, b) => {
        const n = Math.min(a.length, b.length);
        const ab = a.slice(0, n).map((x, i) => [x, b[i]] as [number, number]);
        const ba = ab.map(([x, y]) => [y, x] as [number, number]);
        const k1 = cohenKappa(ab, { categories: [1, 2, 3, 4], weights: "quadratic" }).value;
        const k2 = cohenKappa(ba, { categories: [1, 2, 3, 4], weights: "quadratic" }).value;
        if (k1 === null) expect(k2).toBeNull();
        else expect(k2).toBeCloseTo(k1, 12);
      }),
    );
  });
});
