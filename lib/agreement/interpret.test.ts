/** The Landis–Koch reading beside an interval (issue 34.6): one word only when the interval stays in one band. */
import { describe, expect, it } from "vitest";
import { landisKoch, landisKochReading, MIN_ITEMS_FOR_INTERVAL, tooFewItems, tooFewNote } from "./interpret";

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

describe("too few items (issue 44.4)", () => {
  it("no word below the minimum n, whatever the value; the note names n and the minimum", () => {
    expect(landisKochReading(-0.8, null, 3)).toBeNull();
    expect(landisKochReading(-0.8, null, MIN_ITEMS_FOR_INTERVAL)).toBe("poor");
    expect(tooFewItems(MIN_ITEMS_FOR_INTERVAL - 1)).toBe(true);
    expect(tooFewItems(undefined)).toBe(false);
    expect(tooFewNote(3)).toBe(`too few items for an interval (n = 3 < ${MIN_ITEMS_FOR_INTERVAL})`);
  });
});
