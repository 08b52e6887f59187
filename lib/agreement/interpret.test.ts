/** The Landis–Koch reading beside an interval (issue 34.6): one word only when the interval stays in one band. */
import { describe, expect, it } from "vitest";
import { landisKoch, landisKochReading } from "./interpret";

describe("landisKochReading", () => {
  it("one word when the interval stays in the value's band, or without an interval", () => {
    expect(landisKochReading(0.7, [0.62, 0.78])).toBe("substantial");
    expect(landisKochReading(0.7, null)).toBe(landisKoch(0.7));
    expect(landisKochReading(null, [0.1, 0.9])).toBeNull();
  });
  it("two bands: both named", () => {
    expect(landisKochReading(0.62, [0.55, 0.7])).toBe("moderate to substantial");
  });
  it('three or more: says the interval spans them instead of one word ("substantial" beside [0.10, 1.00])', () => {
    expect(landisKochReading(0.7, [0.1, 1])).toBe("slight to almost perfect: the interval spans 5 bands");
    expect(landisKochReading(0.3, [-0.2, 0.5])).toBe("poor to moderate: the interval spans 4 bands");
  });
});
