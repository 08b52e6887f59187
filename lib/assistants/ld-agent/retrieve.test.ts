import { describe, expect, it } from "vitest";
import { DEFAULT_TAU_MS, topicOverlap } from "./retrieve";

describe("LD-Agent topic overlap", () => {
  it("is ½(|Vq∩Vk|/|Vq| + |Vq∩Vk|/|Vk|) over noun sets", () => {
    // Vq = {gym, morning, knee}, Vk = {gym, knee, doctor, pain, week}: overlap 2 → ½(2/3 + 2/5) = 8/15
    expect(topicOverlap(["gym", "morning", "knee"], ["gym", "knee", "doctor", "pain", "week"])).toBeCloseTo(8 / 15, 12);
    expect(topicOverlap(["a", "a", "b"], ["b"])).toBeCloseTo(0.5 * (1 / 2 + 1), 12); // sets, not lists
    expect(topicOverlap([], ["x"])).toBe(0);
    expect(topicOverlap(["x"], [])).toBe(0);
    expect(topicOverlap(["x"], ["y"])).toBe(0);
  });

  it("τ decays a 116-day-old event to about 1/e", () => {
    expect(Math.exp(-(1e7 * 1000) / DEFAULT_TAU_MS)).toBeCloseTo(1 / Math.E, 12);
  });
});
