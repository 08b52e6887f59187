/** json.ts: the JSON in a reply, wherever the model put it. */
import { describe, expect, it } from "vitest";
import { extractJson } from "./json";

describe("extractJson", () => {
  it("finds JSON in code fences and surrounding text", () => {
    expect(extractJson('```json\n{"a": 1}\n```')).toEqual({ a: 1 });
    expect(extractJson('Sure! Here it is: {"a": "x}y", "b": [1, {"c": 2}]} Hope it helps.')).toEqual({ a: "x}y", b: [1, { c: 2 }] });
    expect(extractJson("[1, 2]")).toEqual([1, 2]);
    expect(() => extractJson("no json here")).toThrow(/no JSON/);
  });
});
