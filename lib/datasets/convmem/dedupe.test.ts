/** The session hash is sha256 of JSON.stringify of the turns, byte for byte, whatever the text holds. */
import crypto from "node:crypto";
import { describe, expect, it } from "vitest";
import { jsonString, rowsJson, SessionPool } from "./dedupe";

const TRICKY = [
  "",
  "plain text, commas, [brackets] {braces}",
  'a "quote" and a \\ backslash',
  "control \u0000 \u0001 \b \f \n \r \t \u001f end",
  "non-ASCII é ü 中文 — ✓ and U+2028 \u2028 U+2029 \u2029 and DEL \u007f",
  "a pair 😀 of surrogates",
  "a lone high \ud83d surrogate",
  "a lone low \ude00 surrogate",
  "\udfff\ud800 reversed",
];

describe("session hashing", () => {
  it("writes every string as JSON.stringify does", () => {
    for (const s of TRICKY) expect(jsonString(s)).toBe(JSON.stringify(s));
  });

  it("writes rows as JSON.stringify does", () => {
    const rows = TRICKY.map((s, i) => [s, i % 2 ? null : s.toUpperCase(), i % 3 === 0, i === 4 ? { b: [1, "x"], a: s } : null, undefined]);
    expect(rowsJson(rows.length, 5, (r, i) => rows[r][i])).toBe(JSON.stringify(rows));
    expect(rowsJson(0, 5, () => null)).toBe("[]");
  });

  it("hashes LoCoMo sessions as sha256 of the canonical turns, extra fields sorted", () => {
    const turns = TRICKY.map((text, i) => ({
      speaker: i % 2 ? "B" : "A",
      text,
      diaId: `D1:${i}`,
      extra: i === 2 ? { z: 1, a: "caption \u2028" } : null,
    }));
    const canonical = turns.map((t) => [
      t.speaker,
      t.text,
      t.diaId,
      null,
      t.extra ? Object.entries(t.extra).sort(([a], [b]) => (a < b ? -1 : 1)) : null,
    ]);
    const expected = crypto.createHash("sha256").update(JSON.stringify(canonical)).digest("hex").slice(0, 32);
    const pool = new SessionPool();
    expect(pool.add("s1", turns)).toBe(0);
    expect(pool.sessions[0].hash).toBe(expected);
    expect(
      pool.add(
        "s1",
        turns.map((t) => ({ ...t })),
      ),
    ).toBe(0);
    expect(pool.add("s1", [{ ...turns[0], text: "other" }])).toBe(1);
  });
});
