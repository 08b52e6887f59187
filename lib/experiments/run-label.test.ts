import { describe, expect, it } from "vitest";
import { runLabel, runNumber } from "./run-label";

describe("run numbers (issue 44.5)", () => {
  it("count from 1 wherever a person reads them", () => {
    expect(runNumber(0)).toBe(1);
    expect(runLabel(0)).toBe("run 1");
    expect(runLabel(2)).toBe("run 3");
  });
});
