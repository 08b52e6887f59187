import { describe, expect, it } from "vitest";
import { safeCallbackPath } from "./callback";

describe("safeCallbackPath", () => {
  it("keeps paths of this app", () => {
    expect(safeCallbackPath("/datasets/3?page=2#u-1")).toBe("/datasets/3?page=2#u-1");
    expect(safeCallbackPath("/")).toBe("/");
    expect(safeCallbackPath(undefined)).toBe("/");
  });

  it("refuses anything that a browser would resolve to another origin", () => {
    for (const bad of [
      "/\\evil.example/x", // the decoded form of /%5Cevil.example/x
      "/\t/evil.example/x", // the decoded form of /%09/evil.example/x
      "/\n/evil.example/x",
      "//evil.example/x",
      "\\\\evil.example",
      "http://evil.example/x",
      "https:evil.example",
      "javascript:alert(1)",
      " //evil.example",
    ]) {
      const out = safeCallbackPath(bad);
      expect(new URL(out, "http://app.local").origin, JSON.stringify(bad)).toBe("http://app.local");
      expect(out.startsWith("/") && !out.startsWith("//") && !out.includes("\\"), JSON.stringify(bad)).toBe(true);
    }
  });
});
