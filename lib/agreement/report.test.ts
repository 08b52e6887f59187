import { describe, expect, it } from "vitest";
import { MIN_ITEMS_FOR_INTERVAL } from "./interpret";
import { agreementReport, AgreementInputError, parseAgreementInput } from "./report";

const ordinal = {
  scale: "ordinal",
  categories: [1, 2, 3],
  items: [
    { id: "s1", ratings: { ann: 3, bob: 3 } },
    { id: "s2", ratings: { ann: 2, bob: 3 } },
    { id: "s3", ratings: { ann: 1, bob: 1 } },
    { id: "s4", ratings: { ann: 3, bob: 2 } },
  ],
};

describe("agreement report (the shape of docs/cli.md)", () => {
  it("computes every named value on a small ordinal example", () => {
    const r = agreementReport(parseAgreementInput(ordinal));
    // 2 of 4 items agree.
    expect(r.percentAgreement).toBe(0.5);
    // Cohen: table rows ann [1,0,0] [0,0,1] [0,1,1]; marginals 1,1,2 both → p_e = 6/16, p_o = 1/2 → 0.2.
    // Linear: observed .5 + .5 = 1, expected Σ w r_i c_j / 4 = 1.75 → 3/7. Quadratic: .5 vs 1.375 → 7/11.
    expect(r.cohen).toHaveLength(1);
    const c = r.cohen[0];
    expect(c.raters).toEqual(["ann", "bob"]);
    expect(c.n).toBe(4);
    expect(c.kappa).toBe(0.2);
    expect(c.linearWeightedKappa).toBeCloseTo(3 / 7, 15);
    expect(c.quadraticWeightedKappa).toBeCloseTo(7 / 11, 15);
    // Fleiss: P̄ = 1/2; pooled 2, 2, 4 of 8 → P̄e = 24/64 → 0.2.
    expect(r.fleissKappa).toBeCloseTo(0.2, 15);
    // Krippendorff ordinal: n_c = 2, 2, 4; δ²(1,2) = 4, δ²(1,3) = 25, δ²(2,3) = 9; o_23 = o_32 = 2;
    // α = 1 − 7 · (2·9 + 2·9) / (2·(4·4 + 8·25 + 8·9)) = 1 − 252/576 = 0.5625.
    expect(r.krippendorffAlpha).toBeCloseTo(0.5625, 15);
    expect(Object.keys(r).slice(0, 4)).toEqual(["percentAgreement", "fleissKappa", "krippendorffAlpha", "cohen"]);
    expect(r.reasons).toEqual({});
  });

  it("nominal scales have no weighted kappas; Fleiss over the items with complete ratings; missing ratings allowed", () => {
    const r = agreementReport(
      parseAgreementInput({
        scale: "nominal",
        items: [
          { id: 1, ratings: { a: "x", b: "x", c: "y" } },
          { id: 2, ratings: { a: "y", b: "y" } },
          { id: 3, ratings: { a: "x", c: null } },
          { id: 4, ratings: { b: "y", c: "y" } },
        ],
      }),
    );
    expect(r.categories).toEqual(["x", "y"]);
    // Two ratings is the most common count: Fleiss takes items 2 and 4 (both y, y), where it is undefined.
    expect(r.fleissItems).toEqual({ used: 2, ratingsPerItem: 2, leftOut: 2 });
    expect(r.fleissKappa).toBeNull();
    expect(r.reasons.fleissKappa).toMatch(/same category/);
    expect(r.krippendorffAlpha).not.toBeNull();
    expect(r.cohen.map((c) => [c.raters, c.n])).toEqual([
      [["a", "b"], 2],
      [["a", "c"], 1],
      [["b", "c"], 2],
    ]);
    expect(r.cohen[0].linearWeightedKappa).toBeNull();
    expect(r.cohen[0].reasons?.linearWeightedKappa).toMatch(/ordered/);
    // Items 1, 2, 4 have 2+ ratings: 1/3 + 1 + 1 → 7/9.
    expect(r.percentAgreement).toBeCloseTo(7 / 9, 15);
  });

  it("one rater or no overlap: nulls with reasons, never NaN", () => {
    const r = agreementReport(parseAgreementInput({ scale: "nominal", items: [{ ratings: { a: "x" } }, { ratings: { b: "y" } }] }));
    expect(r.percentAgreement).toBeNull();
    expect(r.krippendorffAlpha).toBeNull();
    expect(r.cohen[0]).toMatchObject({ n: 0, kappa: null });
    expect(r.reasons.percentAgreement).toBeTruthy();
    expect(JSON.stringify(r)).not.toMatch(/NaN/);
  });

  // The four items three times over: 12 items, above the minimum for an interval.
  const ordinal12 = { ...ordinal, items: [0, 1, 2].flatMap((k) => ordinal.items.map((it) => ({ ...it, id: `${it.id}-${k}` }))) };

  it("bootstrap intervals and majority labels on request", () => {
    const r = agreementReport(parseAgreementInput(ordinal12), { bootstrap: { iterations: 200, seed: 3 }, majority: { tieRule: "first" } });
    expect(r.bootstrap?.iterations).toBe(200);
    const ci = r.bootstrap!.ci.percentAgreement!;
    expect(ci[0]).toBeLessThanOrEqual(0.5);
    expect(ci[1]).toBeGreaterThanOrEqual(0.5);
    expect(r.fleissCi).toHaveLength(2);
    expect(r.cohen[0].ci?.kappa).toHaveLength(2);
    expect(r.majority?.items.slice(0, 4).map((m) => m.label)).toEqual([3, 2, 1, 2]);
    expect(agreementReport(parseAgreementInput(ordinal12), { bootstrap: { iterations: 200, seed: 3 } }).bootstrap).toEqual(r.bootstrap);
  });

  it("below the minimum n (issue 44.4): the estimate alone, no interval and no Landis–Koch word", () => {
    const r = agreementReport(parseAgreementInput(ordinal), { bootstrap: { iterations: 200, seed: 3 } });
    expect(MIN_ITEMS_FOR_INTERVAL).toBeGreaterThan(4);
    expect(r.fleissKappa).toBeCloseTo(0.2, 15);
    expect(r.pairedItems).toBe(4);
    expect(r.fleissCi).toBeNull();
    expect(r.bootstrap!.ci).toEqual({ percentAgreement: null, fleissKappa: null, krippendorffAlpha: null });
    expect(r.interpretation).toEqual({ fleissKappa: null, krippendorffAlpha: null });
    expect(r.cohen[0].kappa).toBe(0.2);
    expect(r.cohen[0].ci).toEqual({ kappa: null, linearWeightedKappa: null, quadraticWeightedKappa: null });
    // The same data at 12 items get their readings.
    expect(agreementReport(parseAgreementInput(ordinal12)).interpretation.fleissKappa).toBe("slight");
  });

  it("rejects bad input with the place named", () => {
    expect(() => parseAgreementInput({ scale: "fuzzy", items: [] })).toThrow(/scale/);
    expect(() => parseAgreementInput({ scale: "ordinal", categories: [1, 2], items: [{ ratings: { a: 3 } }] })).toThrow(
      /items\[0\]\.ratings\.a: label 3 is not in categories/,
    );
    expect(() => parseAgreementInput({ scale: "ordinal", items: [{ ratings: { a: "low" } }] })).toThrow(AgreementInputError);
    expect(() => parseAgreementInput({ scale: "nominal", items: [{ ratings: [] }] })).toThrow(/items\[0\]\.ratings/);
  });
});
