import { describe, expect, it } from "vitest";
import { hitRate, hitValues } from "./scores";

describe("HiCUPID retrieval hit rate (Table A2)", () => {
  it("hits per type: the associated dialogue, or for multi-info its persona and any of its profile dialogues", () => {
    const multi = [
      { key: "5", type: "profile" },
      { key: "6", type: "profile" },
      { key: "1", type: "persona" },
    ];
    expect(hitValues("profile", multi, new Set(["6", "9"]))).toEqual({ personaHit: 0, profileHit: 1 });
    expect(hitValues("profile", multi, new Set(["1"]))).toEqual({ personaHit: 1, profileHit: 0 });
    expect(hitValues("persona", [{ key: "0", type: "persona" }], new Set(["0", "3"]))).toEqual({ hit: 1 });
    expect(hitValues("schedule", [{ key: "9", type: "schedule" }], new Set(["3"]))).toEqual({ hit: 0 });
  });

  // persona hits 1 of 2 = 0.5, schedule 1 of 1, multi-info (persona 1 + profile 0)/2 = 0.5:
  // (0.5·25 + 1·10 + 0.5·5)/40 = 25/40 → 62.5 %
  it("weights persona 25/40, schedule 10/40, multi-info (persona + profile)/2 5/40, in percent", () => {
    const items = [
      { type: 0, hit: 1 },
      { type: 0, hit: 0 },
      { type: 2, hit: 1 },
      { type: 1, personaHit: 1, profileHit: 0 },
    ];
    expect(hitRate(items)).toBeCloseTo(62.5, 12);
    // without multi-info items: (0.5·25 + 1·10)/35
    expect(hitRate(items.slice(0, 3))).toBeCloseTo((22.5 / 35) * 100, 12);
    expect(hitRate([])).toBeNull();
  });
});
