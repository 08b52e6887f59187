import { describe, expect, it } from "vitest";
import { isInlineImageSrc } from "./guideline-images";

describe("isInlineImageSrc", () => {
  it("loads the app's own paths and data:image URLs", () => {
    for (const ok of ["/guide/scale.png", "img/a.png", "/a.png?v=2", "data:image/png;base64,iVBORw0KGgo=", "DATA:image/svg+xml,<svg/>"]) {
      expect(isInlineImageSrc(ok), ok).toBe(true);
    }
  });

  it("refuses other origins, protocol-relative tricks and other schemes", () => {
    for (const bad of [
      "https://tracker.example/pixel.gif",
      "http://localhost:3000/a.png", // absolute: the app's origin is not known here, so not inline
      "//tracker.example/p.gif",
      "/\\tracker.example/p.gif",
      "/.//tracker.example/p.gif",
      "\\\\tracker.example\\p.gif",
      "data:text/html,<script>alert(1)</script>",
      "javascript:alert(1)",
      "ftp://x/a.png",
      "",
      undefined,
    ]) {
      expect(isInlineImageSrc(bad), String(bad)).toBe(false);
    }
  });
});
