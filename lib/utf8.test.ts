import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { decodeUtf8, utf8Lines } from "./utf8";

const bytes = (...parts: Array<string | number[]>) =>
  Buffer.concat(parts.map((p) => (typeof p === "string" ? Buffer.from(p) : Buffer.from(p))));

describe("strict UTF-8", () => {
  it("decodes valid text (a BOM dropped) and refuses invalid bytes with file, line and byte", () => {
    expect(decodeUtf8(bytes([0xef, 0xbb, 0xbf], "你好\n"), "a.jsonl")).toBe("你好\n");
    expect(() => decodeUtf8(bytes('{"a": 1}\n{"b": "caf', [0xe9], '"}\n'), "x.jsonl")).toThrow("x.jsonl:2: not valid UTF-8 (byte 20)");
    // GBK bytes, an overlong encoding, a lone surrogate, a truncated sequence at the end.
    for (const bad of [
      [0xc4, 0xe3],
      [0xc0, 0xaf],
      [0xed, 0xa0, 0x80],
      [0xe4, 0xbd],
    ])
      expect(() => decodeUtf8(bytes("ok\nok\n", bad), "g.jsonl")).toThrow(/^g\.jsonl:3: not valid UTF-8 \(byte 7\)/);
  });

  it("reads lines of a file strictly, numbering them", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "utf8-"));
    const f = path.join(dir, "a.jsonl");
    fs.writeFileSync(f, bytes("一\r\n二\n", "x".repeat(200_000), "\n"));
    const lines = [];
    for await (const l of utf8Lines(f, "a.jsonl")) lines.push([l.n, l.line.length]);
    expect(lines).toEqual([
      [1, 1],
      [2, 1],
      [3, 200_000],
    ]);
    fs.writeFileSync(f, bytes("一\n", "x".repeat(100_000), [0xff], "\n"));
    await expect(async () => {
      for await (const _ of utf8Lines(f, "a.jsonl")) void _;
    }).rejects.toThrow("a.jsonl:2: not valid UTF-8 (byte 100005)");
    fs.rmSync(dir, { recursive: true });
  });
});
