/** WeightedLru: bounded by weight; an entry read since eviction last came round survives it. */
import { describe, expect, it } from "vitest";
import { WeightedLru } from "./lru";

describe("WeightedLru", () => {
  it("keeps the summed weight under the bound, evicting unread entries first", () => {
    const c = new WeightedLru<string, number[]>(10, (v) => v.length);
    c.set("a", [1, 2, 3, 4]);
    c.set("b", [1, 2, 3, 4]);
    expect(c.get("a")).toEqual([1, 2, 3, 4]);
    c.set("c", [1, 2, 3, 4]); // 12 > 10: "b" (unread) goes, "a" (read) stays
    expect(c.get("b")).toBeUndefined();
    expect(c.get("a")).toBeDefined();
    expect(c.get("c")).toBeDefined();
    c.set("d", Array(11).fill(0)); // heavier than the whole cache: not kept, nothing evicted
    expect(c.get("d")).toBeUndefined();
    expect(c.size).toBe(2);
    c.set("a", [1]); // replacing re-weighs
    c.set("e", [1, 2, 3, 4, 5]);
    expect([c.get("a"), c.get("c")?.length, c.get("e")?.length]).toEqual([[1], 4, 5]);
    c.delete("e");
    c.clear();
    expect(c.size).toBe(0);
  });
});
