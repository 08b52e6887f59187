import { describe, expect, it } from "vitest";
import { safeCallbackPath } from "./callback";

/** The open-redirect variants found by the probes (issue 14 item 1 and earlier). */
const OFFSITE_CALLBACKS = [
  "/.//evil.example/phish",
  "/..//evil.example",
  "/%2e//evil.example",
  "/%2E%2E//evil.example",
  "..//evil.example",
  ".//evil.example",
  "/x/../\\evil.example",
  "/./\\evil.example",
  "/x/..//evil.example/a?b#c",
  "/\\evil.example/x", // the decoded form of /%5Cevil.example/x
  "/\t/evil.example/x", // the decoded form of /%09/evil.example/x
  "/\n/evil.example/x",
  "//evil.example/x",
  "\\\\evil.example",
  "http://evil.example/x",
  "https:evil.example",
  "javascript:alert(1)",
  " //evil.example",
];

describe("safeCallbackPath", () => {
  const ORIGIN = "http://app.local:3000";

  it("keeps paths of this app", () => {
    expect(safeCallbackPath("/datasets/3?page=2#u-1", "/", ORIGIN)).toBe("/datasets/3?page=2#u-1");
    expect(safeCallbackPath("/", "/", ORIGIN)).toBe("/");
    expect(safeCallbackPath(undefined, "/", ORIGIN)).toBe("/");
    expect(safeCallbackPath("/a/./b/../c", "/", ORIGIN)).toBe("/a/c");
    expect(safeCallbackPath("http://app.local:3000/campaigns?x=1", "/", ORIGIN)).toBe("/campaigns?x=1");
  });

  it("refuses anything that a browser would resolve to another origin, even after resolving our answer again", () => {
    for (const bad of OFFSITE_CALLBACKS) {
      const out = safeCallbackPath(bad, "/", ORIGIN);
      // The browser resolves our answer against the page's URL (the login page), maybe twice.
      const first = new URL(out, `${ORIGIN}/login`);
      const second = new URL(`${first.pathname}${first.search}${first.hash}`, `${ORIGIN}/login`);
      expect(first.origin, JSON.stringify(bad)).toBe(ORIGIN);
      expect(second.origin, JSON.stringify(bad)).toBe(ORIGIN);
      expect(out.startsWith("/") && !out.startsWith("//") && !out.includes("\\"), JSON.stringify(bad)).toBe(true);
    }
  });

  it("refuses another scheme or port of the same host", () => {
    expect(safeCallbackPath("https://app.local:3000/x", "/", ORIGIN)).toBe("/");
    expect(safeCallbackPath("http://app.local:3001/x", "/", ORIGIN)).toBe("/");
  });
});
