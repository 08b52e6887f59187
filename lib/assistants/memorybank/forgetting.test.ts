import { describe, expect, it } from "vitest";
import { DAY_MS, decideForgetting, forgetDraw, newTrace, recall, retention, type MemoryTrace } from "./forgetting";

const T0 = Date.UTC(2024, 0, 1);
const day = (n: number) => T0 + n * DAY_MS;

describe("retention R = e^(−t/S), t in days", () => {
  it("matches hand values", () => {
    expect(retention(0, 1)).toBe(1);
    expect(retention(1, 1)).toBeCloseTo(0.367879, 6); // e^−1
    expect(retention(2, 2)).toBeCloseTo(0.367879, 6);
    expect(retention(1, 2)).toBeCloseTo(0.606531, 6); // e^−0.5
    expect(retention(3, 1)).toBeCloseTo(0.049787, 6); // e^−3
    expect(retention(0.5, 1)).toBeCloseTo(0.606531, 6); // half a day
    expect(() => retention(1, 0)).toThrow(/strength must be positive/);
  });
});

describe("recall", () => {
  it("starts at S = 1, adds 1 per recall and restarts the clock", () => {
    const m = newTrace("m1", day(0));
    expect(m).toEqual({ id: "m1", strength: 1, lastRecalledAt: day(0) });
    const r1 = recall(m, day(2));
    expect(r1).toEqual({ id: "m1", strength: 2, lastRecalledAt: day(2) });
    expect(m.strength).toBe(1); // not mutated
    const r2 = recall(r1, day(3));
    expect(r2.strength).toBe(3);
    // 2 days after the last recall with S = 3: e^(−2/3) = 0.513417
    const [d] = decideForgetting([r2], day(5), { kind: "threshold", threshold: 0 });
    expect(d.retention).toBeCloseTo(0.513417, 6);
    // the public code's three levels (memory_level = 3): a third recall leaves S at 3
    expect(recall(r2, day(4)).strength).toBe(3);
    expect(recall(recall(r2, day(4)), day(5)).strength).toBe(3);
    expect(recall(r2, day(4), { maxStrength: 5 }).strength).toBe(4); // the cap is an option
  });
});

describe("decideForgetting", () => {
  const traces: MemoryTrace[] = [
    { id: "a", strength: 1, lastRecalledAt: day(0) }, // t = 1, R = 0.3679
    { id: "b", strength: 2, lastRecalledAt: day(0) }, // t = 1, R = 0.6065
    { id: "c", strength: 3, lastRecalledAt: day(-29) }, // t = 30 → past the horizon
    { id: "d", strength: 1, lastRecalledAt: day(1) }, // t = 0, R = 1
  ];

  it("threshold rule: kept while R ≥ threshold; past 30 days always forgotten", () => {
    const out = decideForgetting(traces, day(1), { kind: "threshold", threshold: 0.5 });
    expect(out.map((d) => [d.trace.id, d.kept])).toEqual([
      ["a", false],
      ["b", true],
      ["c", false],
      ["d", true],
    ]);
    expect(out[2].retention).toBeCloseTo(Math.exp(-10), 12);
    expect(decideForgetting(traces, day(1), { kind: "threshold", threshold: 0 }).map((d) => d.kept)).toEqual([true, true, false, true]);
    expect(() => decideForgetting(traces, day(1), { kind: "threshold", threshold: 2 })).toThrow(/within \[0, 1\]/);
  });

  it("sample rule: keeps a memory when its seeded draw is below R, reproducibly and order-free", () => {
    const rule = { kind: "sample", seed: 7 } as const;
    const out = decideForgetting(traces, day(1), rule);
    out.forEach((d) => {
      if (d.trace.id === "c") expect(d.kept).toBe(false);
      else expect(d.kept).toBe(forgetDraw(7, d.trace.id, day(1)) < d.retention);
    });
    expect(out.find((d) => d.trace.id === "d")!.kept).toBe(true); // R = 1 always kept
    expect(decideForgetting(traces, day(1), rule)).toEqual(out);
    const reversed = decideForgetting([...traces].reverse(), day(1), rule);
    expect(reversed.map((d) => [d.trace.id, d.kept]).reverse()).toEqual(out.map((d) => [d.trace.id, d.kept]));
  });

  it("sample rule: the kept share follows R (2,000 memories at R = e^−1 ≈ 0.368)", () => {
    const many = Array.from({ length: 2000 }, (_, i) => newTrace(`m${i}`, day(0)));
    const kept = decideForgetting(many, day(1), { kind: "sample", seed: 1 }).filter((d) => d.kept).length / many.length;
    expect(kept).toBeGreaterThan(0.368 - 0.035);
    expect(kept).toBeLessThan(0.368 + 0.035);
    // another seed decides differently for individual memories
    const other = decideForgetting(many, day(1), { kind: "sample", seed: 2 });
    const same = decideForgetting(many, day(1), { kind: "sample", seed: 1 });
    expect(other.some((d, i) => d.kept !== same[i].kept)).toBe(true);
  });
});
