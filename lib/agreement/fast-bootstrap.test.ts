/**
 * The report's bootstrap (lib/agreement/resample.ts) against the reference it replaced: resample every item
 * and recompute each statistic from scratch with `bootstrapCI` (kept here, in the test, as the reference).
 */
import { describe, expect, it } from "vitest";
import { generateRatings, referenceBootstrap } from "@/test/agreement-reference";
import { cohenKappa } from "./cohen";
import { agreementReport, type AgreementInput } from "./report";
import type { Label } from "./types";

type Item = AgreementInput["items"][number];
const CATS: Label[] = [1, 2, 3];
const reference = (items: Item[], raters: string[], iterations: number) => {
  const r = referenceBootstrap(items, raters, CATS, iterations);
  return { ...r, pairs: r.pairs.map((p) => p[0]) };
};
const generate = generateRatings;

describe("the report's bootstrap against the resample-everything reference", () => {
  it("complete data (every rater on every item): the same values and the same intervals", () => {
    const raters = ["a", "b", "c"];
    const items = generate(40, raters, 3, 5);
    const fast = agreementReport({ scale: "ordinal", categories: CATS, items }, { bootstrap: { iterations: 300, seed: 1 } });
    const ref = reference(items, raters, 300);
    for (const key of ["percentAgreement", "fleissKappa", "krippendorffAlpha"] as const) {
      expect(fast[key]).toBeCloseTo(ref[key].value!, 12);
      expect(fast.bootstrap!.ci[key]![0]).toBeCloseTo(ref[key].ci![0], 12);
      expect(fast.bootstrap!.ci[key]![1]).toBeCloseTo(ref[key].ci![1], 12);
    }
    expect(fast.fleissCi).toEqual(fast.bootstrap!.ci.fleissKappa);
    fast.cohen.forEach((p, i) => {
      expect(p.quadraticWeightedKappa).toBeCloseTo(ref.pairs[i].value!, 12);
      // Every item is shared by every pair, so the pair's draws are the reference's draws.
      expect(p.ci!.quadraticWeightedKappa![0]).toBeCloseTo(ref.pairs[i].ci![0], 12);
      expect(p.ci!.quadraticWeightedKappa![1]).toBeCloseTo(ref.pairs[i].ci![1], 12);
    });
  });

  it("sparse data (2 of 6 raters per item): the same point estimates; pair intervals of the same shape", () => {
    const raters = ["a", "b", "c", "d", "e", "f"];
    const items = generate(600, raters, 2, 9);
    const fast = agreementReport({ scale: "ordinal", categories: CATS, items }, { bootstrap: { iterations: 300, seed: 1 } });
    const ref = reference(items, fast.raters, 300);
    for (const key of ["percentAgreement", "fleissKappa", "krippendorffAlpha"] as const) {
      expect(fast[key]).toBeCloseTo(ref[key].value!, 12);
      expect(fast.bootstrap!.ci[key]![0]).toBeCloseTo(ref[key].ci![0], 12);
      expect(fast.bootstrap!.ci[key]![1]).toBeCloseTo(ref[key].ci![1], 12);
    }
    fast.cohen.forEach((p, i) => {
      expect(p.quadraticWeightedKappa).toBeCloseTo(ref.pairs[i].value!, 12);
      // The reference's resamples vary the pair's n; ours keep the pair's n items: close, not identical.
      const [lo, hi] = p.ci!.quadraticWeightedKappa!;
      const [rlo, rhi] = ref.pairs[i].ci!;
      expect(lo).toBeLessThanOrEqual(p.quadraticWeightedKappa!);
      expect(hi).toBeGreaterThanOrEqual(p.quadraticWeightedKappa!);
      expect((hi - lo) / (rhi - rlo)).toBeGreaterThan(0.7);
      expect((hi - lo) / (rhi - rlo)).toBeLessThan(1.3);
      expect(Math.abs(lo - rlo)).toBeLessThan(0.12);
      expect(Math.abs(hi - rhi)).toBeLessThan(0.12);
    });
  });

  it("a pair that shares no item has no interval and costs no resample", () => {
    const items: Item[] = [
      { id: 1, ratings: { a: 1, b: 1 } },
      { id: 2, ratings: { a: 2, b: 2 } },
      { id: 3, ratings: { c: 1, d: 2 } },
      { id: 4, ratings: { a: 3, b: 2 } },
    ];
    const r = agreementReport({ scale: "ordinal", categories: CATS, items }, { bootstrap: { iterations: 50 } });
    const ac = r.cohen.find((p) => p.raters.join() === "a,c")!;
    expect(ac).toMatchObject({ n: 0, kappa: null });
    expect(ac.ci).toEqual({ kappa: null, linearWeightedKappa: null, quadraticWeightedKappa: null });
  });
});

describe("Fleiss' kappa over the items with complete ratings", () => {
  it("hand computed: the item with one rating is left out, the rest give the textbook value", () => {
    // Complete items (2 ratings): (x,x) (x,y) (y,y) (y,y). P_i = 1, 0, 1, 1 → P̄ = 3/4.
    // Pooled: x 3, y 5 of 8 → P̄e = 9/64 + 25/64 = 34/64. κ = (48/64 − 34/64)/(30/64) = 14/30.
    const r = agreementReport({
      scale: "nominal",
      categories: ["x", "y"],
      items: [
        { id: 1, ratings: { a: "x", b: "x" } },
        { id: 2, ratings: { a: "x", b: "y" } },
        { id: 3, ratings: { a: "y", c: "y" } },
        { id: 4, ratings: { b: "y", c: "y" } },
        { id: 5, ratings: { c: "x" } },
      ],
    });
    expect(r.fleissKappa).toBeCloseTo(14 / 30, 15);
    expect(r.fleissItems).toEqual({ used: 4, ratingsPerItem: 2, leftOut: 1 });
    expect(r.reasons.fleissKappa).toBeUndefined();
  });
  it("a campaign's k decides what complete means: with k = 3 no item is complete yet", () => {
    const r = agreementReport(
      { scale: "nominal", categories: ["x", "y"], items: [{ id: 1, ratings: { a: "x", b: "y" } }] },
      { ratingsPerItem: 3 },
    );
    expect(r.fleissKappa).toBeNull();
    expect(r.reasons.fleissKappa).toMatch(/all 3 ratings/);
  });
});

describe("constant ratings", () => {
  it("a rater with one value throughout: kappa undefined, not 0", () => {
    // b always says Tie; a varies. p_o = 2/4 = p_e: the textbook formula gives 0, which would read "poor".
    const pairs: Array<[Label, Label]> = [
      ["Win", "Tie"],
      ["Tie", "Tie"],
      ["Lose", "Tie"],
      ["Tie", "Tie"],
    ];
    const k = cohenKappa(pairs, { categories: ["Win", "Tie", "Lose"] });
    expect(k.value).toBeNull();
    expect(k.reason).toMatch(/^undefined \(constant ratings\): the second rater gave one value throughout/);
    const r = agreementReport({
      scale: "nominal",
      categories: ["Win", "Tie", "Lose"],
      items: pairs.map(([a, b], i) => ({ id: i, ratings: { a, b } })),
    });
    expect(r.cohen[0].kappa).toBeNull();
    expect(r.cohen[0].reasons?.kappa).toMatch(/constant ratings/);
  });
});
