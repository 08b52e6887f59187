import { describe, expect, it } from "vitest";
import { DAY_MS, decideForgetting, elapsedDays, forgetDraw, newTrace, recall, retention, type MemoryTrace } from "./forgetting";

const T0 = Date.UTC(2024, 0, 1);
const day = (n: number) => T0 + n * DAY_MS;

describe("retention by curve, t in whole days", () => {
  it("as written in 3869efc: exp(-t / 5*S) = e^(−t·S/5)", () => {
    expect(retention(0, 1)).toBe(1);
    expect(retention(10, 1)).toBeCloseTo(Math.exp(-2), 12);
    expect(retention(10, 2)).toBeCloseTo(Math.exp(-4), 12); // a stronger memory fades faster, as written
    expect(retention(5, 3, "as-written")).toBeCloseTo(Math.exp(-3), 12);
    expect(() => retention(1, 0)).toThrow(/strength must be positive/);
  });
  it("intended: e^(−t/(5S)); 0cc7111: e^(−t/S)", () => {
    expect(retention(10, 1, "intended")).toBeCloseTo(Math.exp(-2), 12);
    expect(retention(10, 2, "intended")).toBeCloseTo(Math.exp(-1), 12);
    expect(retention(1, 1, "0cc7111")).toBeCloseTo(0.367879, 6);
    expect(retention(10, 1, "0cc7111")).toBeCloseTo(Math.exp(-10), 12);
    expect(retention(2, 2, "0cc7111")).toBeCloseTo(0.367879, 6);
  });
  it("counts calendar days, as the public code subtracts dates", () => {
    const evening = Date.UTC(2024, 0, 1, 22, 0);
    expect(elapsedDays(newTrace("m", evening), Date.UTC(2024, 0, 2, 8, 0))).toBe(1);
    expect(elapsedDays(newTrace("m", evening), Date.UTC(2024, 0, 1, 23, 0))).toBe(0);
  });
});

describe("recall", () => {
  it("starts at S = 1, adds 1 per recall with no cap (3869efc), restarts the clock; a cap is an option", () => {
    const m = newTrace("m1", day(0));
    expect(m).toEqual({ id: "m1", strength: 1, lastRecalledAt: day(0) });
    const r1 = recall(m, day(2));
    expect(r1).toEqual({ id: "m1", strength: 2, lastRecalledAt: day(2) });
    expect(m.strength).toBe(1); // not mutated
    let r = r1;
    for (let i = 0; i < 5; i++) r = recall(r, day(3 + i));
    expect(r.strength).toBe(7);
    expect(recall(recall(recall(m, day(1)), day(2)), day(3), { maxStrength: 3 }).strength).toBe(3); // 0cc7111's levels
  });
});

describe("decideForgetting", () => {
  const traces: MemoryTrace[] = [
    { id: "a", strength: 1, lastRecalledAt: day(0) }, // t = 1
    { id: "b", strength: 2, lastRecalledAt: day(0) }, // t = 1
    { id: "c", strength: 3, lastRecalledAt: day(-39) }, // t = 40
    { id: "d", strength: 1, lastRecalledAt: day(1) }, // t = 0, R = 1
  ];

  it("0cc7111: kept while R ≥ threshold; 30 days or more always forgotten", () => {
    const rule = { kind: "threshold", threshold: 0.5, curve: "0cc7111" } as const;
    expect(decideForgetting(traces, day(1), rule).map((d) => [d.trace.id, d.kept])).toEqual([
      ["a", false],
      ["b", true],
      ["c", false],
      ["d", true],
    ]);
    expect(decideForgetting(traces, day(1), { ...rule, threshold: 0 }).map((d) => d.kept)).toEqual([true, true, false, true]);
    expect(() => decideForgetting(traces, day(1), { ...rule, threshold: 2 })).toThrow(/within \[0, 1\]/);
  });

  it("the newest code has no 30-day rule: a 40-day-old memory is still drawn against R", () => {
    const out = decideForgetting(traces, day(1), { kind: "threshold", threshold: 0 });
    expect(out.map((d) => d.kept)).toEqual([true, true, true, true]);
    expect(out[2].retention).toBeCloseTo(Math.exp(-24), 12); // as written: e^(−40·3/5)
    expect(decideForgetting(traces, day(1), { kind: "threshold", threshold: 0, curve: "intended" })[2].retention).toBeCloseTo(
      Math.exp(-40 / 15),
      12,
    );
  });

  it("sample rule: keeps a memory when its seeded draw is below R, reproducibly and order-free", () => {
    const rule = { kind: "sample", seed: 7 } as const;
    const out = decideForgetting(traces, day(1), rule);
    out.forEach((d) => expect(d.kept).toBe(forgetDraw(7, d.trace.id, day(1)) < d.retention));
    expect(out.find((d) => d.trace.id === "d")!.kept).toBe(true); // R = 1 always kept
    expect(decideForgetting(traces, day(1), rule)).toEqual(out);
    const reversed = decideForgetting([...traces].reverse(), day(1), rule);
    expect(reversed.map((d) => [d.trace.id, d.kept]).reverse()).toEqual(out.map((d) => [d.trace.id, d.kept]));
  });

  it("sample rule: the kept share follows R (2,000 memories at R = e^−1 ≈ 0.368)", () => {
    const many = Array.from({ length: 2000 }, (_, i) => newTrace(`m${i}`, day(0)));
    const rule = { kind: "sample", seed: 1, curve: "0cc7111" } as const;
    const kept = decideForgetting(many, day(1), rule).filter((d) => d.kept).length / many.length;
    expect(kept).toBeGreaterThan(0.368 - 0.035);
    expect(kept).toBeLessThan(0.368 + 0.035);
    // another seed decides differently for individual memories
    const other = decideForgetting(many, day(1), { ...rule, seed: 2 });
    const same = decideForgetting(many, day(1), rule);
    expect(other.some((d, i) => d.kept !== same[i].kept)).toBe(true);
  });
});
