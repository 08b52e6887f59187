import { describe, expect, it } from "vitest";
import { stripUrl } from "./format";

describe("stripUrl: what a bundle keeps of an endpoint URL", () => {
  it("drops user:password@, the query string and the fragment; keeps the rest as it was", () => {
    expect(stripUrl("https://api.example.com/v1")).toBe("https://api.example.com/v1");
    expect(stripUrl("http://127.0.0.1:8080/v1/")).toBe("http://127.0.0.1:8080/v1/");
    expect(stripUrl("https://bob:s3cret@api.example.com/v1")).toBe("https://api.example.com/v1");
    expect(stripUrl("https://api.example.com/v1?api-key=abc#x")).toBe("https://api.example.com/v1");
    expect(stripUrl("not a url://u:p@h/x?k=1")).toBe("not a url://h/x");
    expect(stripUrl(null)).toBeNull();
  });
});
