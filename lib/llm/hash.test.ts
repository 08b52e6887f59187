/**
 * canonicalJson, written out by hand for speed (issue 35), gives exactly what the former replacer gave,
 * so every cache key stays the same; the remembered embedding keys are hashOf's.
 */
import { describe, expect, it } from "vitest";
import { canonicalJson, hashOf, vectorKeyOf } from "./hash";
import { mulberry32 } from "@/lib/random";

/** The former definition, kept here as the reference. */
const former = (value: unknown): string =>
  JSON.stringify(value, (_k, v) =>
    v && typeof v === "object" && !Array.isArray(v)
      ? Object.fromEntries(
          Object.entries(v as Record<string, unknown>)
            .filter(([, x]) => x !== undefined)
            .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
        )
      : v,
  );

/** Random JSON-ish values with the awkward cases: index-like keys, undefined, functions, dates, non-finite numbers. */
function randomValue(r: () => number, depth: number): unknown {
  const keys = ["a", "B", "b", "0", "1", "10", "9", "01", "-1", "4294967294", "4294967295", "é", "", "__proto__x", "z z"];
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(r() * xs.length)];
  const leaf = () =>
    pick<() => unknown>([
      () => 'text "quoted" \n 中文',
      () => r() * 1000 - 500,
      () => Math.floor(r() * 10),
      () => NaN,
      () => -0,
      () => true,
      () => null,
      () => undefined,
      () => () => 1,
      () => new Date(Math.floor(r() * 1e12)),
    ])();
  if (depth === 0 || r() < 0.3) return leaf();
  if (r() < 0.4) return Array.from({ length: Math.floor(r() * 4) }, () => randomValue(r, depth - 1));
  const o: Record<string, unknown> = {};
  for (let i = Math.floor(r() * 6); i > 0; i--) o[pick(keys)] = randomValue(r, depth - 1);
  return o;
}

describe("canonicalJson", () => {
  it("is the former replacer's output on 2,000 random values and on a chat request", () => {
    const r = mulberry32(35);
    for (let i = 0; i < 2000; i++) {
      const v = randomValue(r, 4);
      expect(canonicalJson(v)).toBe(former(v));
    }
    const request = {
      endpoint: "http://127.0.0.1:1/v1",
      model: "m",
      messages: [{ role: "user", content: "你好" }],
      params: { temperature: 0.7, top_p: undefined, response_format: { type: "json_object" } },
      replicate: 0,
      toJSONHolder: { toJSON: () => ({ y: 1, x: 2 }) },
    };
    expect(canonicalJson(request)).toBe(former(request));
    expect(canonicalJson(undefined)).toBe(former(undefined));
    for (const boxed of [new String("ab"), new Number(5), new Boolean(false)]) expect(canonicalJson({ boxed })).toBe(former({ boxed }));
    expect(() => canonicalJson({ n: 1n })).toThrow(TypeError);
  });

  it("gives an embedding key that is hashOf's key, per endpoint and model", () => {
    const a = vectorKeyOf("http://e/v1", "m1");
    const b = vectorKeyOf("http://e/v1", "m2");
    for (const text of ["one", "two", "一段中文", ""]) {
      expect(a(text)).toBe(hashOf({ endpoint: "http://e/v1", model: "m1", text }));
      expect(a(text)).toBe(a(text));
      expect(b(text)).toBe(hashOf({ endpoint: "http://e/v1", model: "m2", text }));
    }
  });
});
