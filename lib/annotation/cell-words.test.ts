import { describe, expect, it } from "vitest";
import { cellWords } from "./cell-words";
import { WTL } from "./kinds/pairwise-dialogue";
import { RATING } from "./kinds/session-quality";

describe("the items table in words (issue 26, item 5)", () => {
  it("pairwise: 'humans: A wins ×2 · judge: tie', not 'Win Win · Tie'", () => {
    expect(cellWords({ humans: ["Win", "Win"], judges: ["Tie"], adjudicated: null }, WTL)).toBe("humans: A wins ×2 · judge: tie");
    expect(cellWords({ humans: ["Lose", "Win", "Lose"], judges: [], adjudicated: "Lose" }, WTL)).toBe(
      "humans: B wins ×2, A wins · adjudicated: B wins",
    );
    expect(cellWords({ humans: [], judges: ["Win", "Win"], adjudicated: null }, WTL)).toBe("no human label yet · judges: A wins ×2");
  });
  it("ratings read with their meaning", () => {
    expect(cellWords({ humans: ["3", "2"], judges: ["3"], adjudicated: null }, RATING)).toBe(
      "humans: 3 (completely matches), 2 (basically matches) · judge: 3 (completely matches)",
    );
  });
  it("HiCUPID's A/B reads as model and reference", () => {
    const AB = [
      { value: "Win", label: "Model wins" },
      { value: "Tie", label: "Tie" },
      { value: "Lose", label: "Reference wins" },
    ];
    expect(cellWords({ humans: ["Win"], judges: ["Lose"], adjudicated: null }, AB)).toBe("humans: model wins · judge: reference wins");
  });
});
