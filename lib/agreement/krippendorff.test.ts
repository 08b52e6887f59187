import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { krippendorffAlpha } from "./krippendorff";

// Krippendorff (2011), "Computing Krippendorff's Alpha-Reliability", example C: 4 observers × 12 units,
// values 1..5, "." = missing. Published: nominal .743, ordinal .815, interval .849, ratio .797.
const _ = null;
const A = [1, 2, 3, 3, 2, 1, 4, 1, 2, _, _, _];
const B = [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, _, 3];
const C = [_, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, _];
const D = [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, _];
const units = A.map((_, i) => [A[i], B[i], C[i], D[i]]);

describe("Krippendorff's alpha: the published worked example", () => {
  it("nominal 0.743", () => {
    // By hand: n_1..n_5 = 9, 13, 10, 5, 3 (n = 40); off-diagonal coincidences sum to 8;
    // Σ_{c≠k} n_c n_k = 40² − (81 + 169 + 100 + 25 + 9) = 1216; α = 1 − 39·8/1216 = 113/152 = 0.7434...
    const r = krippendorffAlpha(units, { scale: "nominal" });
    // Unit 12 has one value and drops out: n = 40 pairable values in 11 units.
    expect(r.pairable).toBe(40);
    expect(r.units).toBe(11);
    expect(r.value).toBeCloseTo(0.743, 3);
    expect(r.value).toBeCloseTo(113 / 152, 12);
  });
  it("ordinal 0.815, interval 0.849, ratio 0.797", () => {
    expect(krippendorffAlpha(units, { scale: "ordinal" }).value).toBeCloseTo(0.815, 3);
    expect(krippendorffAlpha(units, { scale: "interval" }).value).toBeCloseTo(0.849, 3);
    expect(krippendorffAlpha(units, { scale: "ratio" }).value).toBeCloseTo(0.797, 3);
  });
  it("ordinal alpha depends on the category order, not the labels", () => {
    const labelled = units.map((u) => u.map((v) => (v === null ? null : "abcde"[v - 1])));
    expect(krippendorffAlpha(labelled, { scale: "ordinal", categories: ["a", "b", "c", "d", "e"] }).value).toBe(
      krippendorffAlpha(units, { scale: "ordinal" }).value,
    );
  });
});

describe("hand-computed and degenerate cases", () => {
  it("two raters, nominal: 1 − (n − 1)·D_o/D_e", () => {
    // Units (a,a) (a,b) (b,b) (b,b): coincidences o_aa = 2, o_ab = o_ba = 1, o_bb = 4; n_a = 3, n_b = 5, n = 8.
    // α = 1 − (8 − 1)·(o_ab + o_ba) / (n_a n_b + n_b n_a) = 1 − 7·2/30 = 8/15.
    const r = krippendorffAlpha([
      ["a", "a"],
      ["a", "b"],
      ["b", "b"],
      ["b", "b"],
    ]);
    expect(r.value).toBeCloseTo(8 / 15, 15);
  });
  it("null with a reason, never NaN", () => {
    expect(
      krippendorffAlpha([
        ["a", "a"],
        ["a", "a"],
      ]),
    ).toMatchObject({ value: null, reason: expect.stringMatching(/variation/) });
    expect(
      krippendorffAlpha([
        ["a", null],
        [null, "b"],
      ]),
    ).toMatchObject({ value: null, reason: expect.stringMatching(/two or more/) });
    expect(krippendorffAlpha([])).toMatchObject({ value: null });
  });
});

describe("properties", () => {
  const label = fc.option(fc.integer({ min: 1, max: 4 }), { nil: null, freq: 4 });
  const data = fc.array(fc.array(label, { minLength: 3, maxLength: 3 }), { minLength: 2, maxLength: 15 });
  it("invariant to rater order and unit order; at most 1", () => {
    fc.assert(
      fc.property(
        data,
        fc.constantFrom("nominal", "ordinal", "interval") as fc.Arbitrary<"nominal" | "ordinal" | "interval">,
        (d, scale) => {
          const a = krippendorffAlpha(d, { scale, categories: [1, 2, 3, 4] }).value;
          const raterPerm = d.map(([x, y, z]) => [z, x, y]);
          const b = krippendorffAlpha(raterPerm, { scale, categories: [1, 2, 3, 4] }).value;
          const c = krippendorffAlpha([...d].reverse(), { scale, categories: [1, 2, 3, 4] }).value;
          if (a === null) {
            expect(b).toBeNull();
            expect(c).toBeNull();
          } else {
            expect(b).toBeCloseTo(a, 12);
            expect(c).toBeCloseTo(a, 12);
            expect(a).toBeLessThanOrEqual(1 + 1e-12);
            expect(Number.isFinite(a)).toBe(true);
          }
        },
      ),
    );
  });
  it("perfect agreement gives 1 when more than one value is used", () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: 4 }), { minLength: 2, maxLength: 20 }), (vals) => {
        fc.pre(new Set(vals).size > 1);
        expect(
          krippendorffAlpha(
            vals.map((v) => [v, v, v]),
            { scale: "nominal" },
          ).value,
        ).toBe(1);
      }),
    );
  });
});
