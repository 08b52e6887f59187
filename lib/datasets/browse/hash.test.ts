import { describe, expect, it } from "vitest";
import { hashTargetId } from "./hash";

describe("hashTargetId", () => {
  it("decodes a fragment and survives a malformed one", () => {
    expect(hashTargetId("#log-3")).toBe("log-3");
    expect(hashTargetId("#%E8%AF%9D%E9%A2%98")).toBe("话题");
    expect(hashTargetId("#%E0%A4%A")).toBe("%E0%A4%A");
    expect(hashTargetId("#100%")).toBe("100%");
    expect(hashTargetId("")).toBe("");
  });
});
