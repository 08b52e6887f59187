import { describe, expect, it } from "vitest";
import { readCappedText } from "./body";

function chunked(parts: string[]): Request {
  const enc = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    start(c) {
      for (const p of parts) c.enqueue(enc.encode(p));
      c.close();
    },
  });
  return new Request("http://x/", { method: "POST", body, duplex: "half" } as RequestInit);
}

describe("readCappedText", () => {
  it("reads a body within the limit", async () => {
    expect(await readCappedText(chunked(["email=a", "@b.cd"]), 100)).toBe("email=a@b.cd");
  });

  it("refuses a declared length over the limit before reading, and a chunked body once it passes it (413)", async () => {
    const big = new Request("http://x/", { method: "POST", body: "x".repeat(200), headers: { "content-length": "200" } });
    await expect(readCappedText(big, 100)).rejects.toMatchObject({ status: 413 });
    await expect(readCappedText(chunked(["x".repeat(60), "x".repeat(60)]), 100)).rejects.toMatchObject({ status: 413 });
  });
});
