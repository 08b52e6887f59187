import { describe, expect, it } from "vitest";
import { byWriteOrder } from "./entry-order";

describe("memory entries in write order", () => {
  it("reads numbers in keys as numbers: #2 before #10 and #11", () => {
    const e = (key: string, validFromSeq = 1, kind = "turn") => ({ key, validFromSeq, kind });
    const sorted = [e("s1#11"), e("s1#2"), e("s1#10"), e("portrait:1", 1, "daily-portrait"), e("s0#1", 0)].sort(byWriteOrder);
    expect(sorted.map((x) => x.key)).toEqual(["s0#1", "portrait:1", "s1#2", "s1#10", "s1#11"]);
  });
});
