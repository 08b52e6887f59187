import { describe, expect, it } from "vitest";
import { itemTitle } from "./item-title";

describe("itemTitle (issue 26, item 5)", () => {
  it("reads the topic or question and whose it is, not the id", () => {
    expect(itemTitle({ topic: "Plan the  weekly\nroster" }, "0000/0000_sample5/topic-1")).toBe("Plan the weekly roster (user 0000)");
    expect(itemTitle({ topic: "Plan the weekly roster" }, "0000/0000_sample5/topic-1")).toBe("Plan the weekly roster (user 0000)");
    expect(itemTitle({ question: "Which gift suits my mother?" }, "q-17")).toBe("Which gift suits my mother?");
    expect(itemTitle({ timestamp: "2024-03-02 09:00", profile: {} }, "0003/0003_sample2")).toBe("user 0003, session of 2024-03-02 09:00");
    expect(itemTitle({}, "line-9")).toBe("line-9");
    expect(itemTitle({ topic: "x".repeat(300) }, "t").length).toBe(120);
  });
});
