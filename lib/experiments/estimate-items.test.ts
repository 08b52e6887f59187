import { describe, expect, it } from "vitest";
import { itemsText } from "./estimate-items";

describe("an estimate's items", () => {
  it("says the repeats it includes", () => {
    expect(itemsText(18, 3)).toBe("6 × 3 runs = 18");
    expect(itemsText(6, 1)).toBe("6");
  });
});
