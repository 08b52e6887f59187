/** The streamed reading of a top-level JSON list: elements equal JSON.parse's, at any chunk size; broken files named. */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { jsonArrayElements } from "./json-array-stream";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pal-jas-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
const file = (name: string, text: string) => {
  const f = path.join(dir, name);
  fs.writeFileSync(f, text);
  return f;
};

describe("jsonArrayElements", () => {
  const value = [
    { a: "brackets ] [ } { and commas , inside", b: [1, [2, { c: 3 }]] },
    { q: 'escaped \\" quote and \\\\ backslash', u: "ünïcødé — 中文 ✓" },
    "a string",
    42,
    [],
    {},
  ];
  const text = `\n ${JSON.stringify(value, null, 1)} \n`;

  it("gives the elements as JSON.parse does, whatever the chunk size (multi-byte characters split across chunks)", () => {
    const f = file("ok.json", text);
    for (const chunk of [1, 2, 3, 7, 64, 1 << 20]) expect([...jsonArrayElements(f, "ok.json", undefined, chunk)]).toEqual(value);
    expect([...jsonArrayElements(file("empty.json", "[ ]"), "empty.json")]).toEqual([]);
  });

  it("finds string ends past runs of backslashes, escaped quotes and chunk edges (strings skipped by indexOf)", () => {
    const texts = ["\\", '\\"', '\\\\\\"]', "\\\\", '"', "],[{", "x\\", '\\\\"\\\\', "é\\中"];
    const many = Array.from({ length: 40 }, (_, i) => ({
      t: texts[i % texts.length].repeat(1 + (i % 3)) + "]".repeat(i % 4),
      n: [i, { s: texts[(i * 7) % texts.length] }],
    }));
    const f = file("escapes.json", JSON.stringify(many));
    for (const chunk of [1, 2, 3, 5, 8, 13, 64, 1 << 20]) expect([...jsonArrayElements(f, "escapes.json", undefined, chunk)]).toEqual(many);
  });

  it("names what is wrong and where", () => {
    const bad = (t: string) => () => [...jsonArrayElements(file("bad.json", t), "bad.json", undefined, 5)];
    expect(bad('{"a": 1}')).toThrow("bad.json: expected a list of questions ([...]) at the start of the file");
    expect(bad('[{"a": 1}, {"a": }]')).toThrow(/^bad\.json: \[1\]: not valid JSON/);
    expect(bad('[{"a": 1}, {"a": 2}')).toThrow("bad.json: the list is not closed (the file ends inside element [1])");
    expect(bad('[{"a": 1}] x')).toThrow("bad.json: text after the list's closing ]");
    expect(bad('[{"a": 1},, {"a": 2}]')).toThrow("bad.json: [1]: an empty element (two commas in a row?)");
    expect(bad("")).toThrow("bad.json: the file is empty (expected a list of questions)");
  });

  it("refuses an element nested deeper than 64 levels while splitting, naming its record and field", () => {
    const deep = (n: number) => `[{"ok": 1}, {"question_id": "q", "x": {"y": ${"[".repeat(n)}${"]".repeat(n)}}}]`;
    const f = file("deep.json", deep(200_000));
    for (const chunk of [7, 1 << 20])
      expect(() => [...jsonArrayElements(f, "deep.json", undefined, chunk)]).toThrow(
        /^deep\.json: \[1\]: field "x\.y\[0\]\[0\]…\[0\]\[0\]\[0\]": nested deeper than 64 levels/,
      );
    // 64 levels in all is still read.
    expect([...jsonArrayElements(file("ok64.json", deep(62)), "ok64.json")]).toHaveLength(2);
  });

  it("refuses one element over the size limit while reading it, before it is held whole", () => {
    const big = `[{"a": 1}, {"turns": "${"x".repeat(5000)}"}]`;
    const f = file("big.json", big);
    expect(() => [...jsonArrayElements(f, "big.json", undefined, 64, 1000)]).toThrow(/^big\.json: \[1\]: one element is over/);
    expect([...jsonArrayElements(f, "big.json", undefined, 64, 10_000)]).toHaveLength(2);
  });
});
