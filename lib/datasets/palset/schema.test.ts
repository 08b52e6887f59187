import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { DatasetError } from "../types";
import { formatPath, isValidUserFast, userSchema, validateUser } from "./schema";
import { parseTimestamp } from "./timestamp";
import { enData, type FixtureJson } from "@/test/palset";

const user0 = () => enData()["0000"];

function messageOf(user: unknown, file = "0000.json", key = "0000"): string {
  try {
    validateUser(file, key, user);
  } catch (e) {
    expect(e).toBeInstanceOf(DatasetError);
    return (e as Error).message;
  }
  throw new Error("expected a DatasetError");
}

describe("PAL-Set schema", () => {
  it("accepts the fixtures", () => {
    for (const [k, u] of Object.entries(enData())) expect(() => validateUser("input.json", k, u)).not.toThrow();
  });

  it("names file, user, sample id and JSON path in one line", () => {
    const u = user0();
    u.history[1].logs[2].timestamp = "yesterday";
    const msg = messageOf(u);
    expect(msg).toBe(
      '0000.json: 0000.history[1] (0000_sample1).logs[2].timestamp: "yesterday" is not a timestamp (expected YYYY-MM-DD HH:MM or YYYY-MM-DD HH:MM:SS)',
    );
    expect(msg).not.toContain("\n");
  });

  it("formats keys that are not identifiers with brackets", () => {
    expect(formatPath("0001", {}, ["query", 0, "topics", "topic-1", "weird key", 3])).toBe('0001.query[0].topics.topic-1["weird key"][3]');
  });

  it("keeps messages on one line even for values with newlines", () => {
    const u = user0();
    u.history[0].logs[0].timestamp = "2024-01-01\n09:00";
    expect(messageOf(u)).not.toMatch(/\n/);
  });

  it.each([
    ["a bare date", "2024-01-05", true],
    ["a T separator", "2024-01-05T20:00:00", true],
    ["slashes", "2024/01/05 20:00", true],
    ["minutes only", "2024-01-05 20:00", true],
    ["a 31st of February", "2024-02-31 10:00", false],
    ["hour 25", "2024-01-05 25:00", false],
    ["free text", "last Tuesday", false],
  ])("timestamps: %s", (_, ts, ok) => {
    const u = user0();
    u.query[0].logs[0].timestamp = ts;
    if (ok) expect(() => validateUser("f", "0000", u)).not.toThrow();
    else expect(messageOf(u)).toContain("is not a timestamp");
  });

  it("reads timestamps as UTC", () => {
    expect(parseTimestamp("2024-01-12 20:00:00")).toBe(Date.UTC(2024, 0, 12, 20, 0, 0));
    expect(parseTimestamp("2024-01-12 20:00")).toBe(Date.UTC(2024, 0, 12, 20, 0));
    expect(parseTimestamp("2024-02-29 00:00")).toBe(Date.UTC(2024, 1, 29));
    expect(parseTimestamp("2023-02-29 00:00")).toBeNull();
  });

  it("the fast validator and zod agree on mutated users", () => {
    // Mutations that touch every rule: wrong types, missing keys, renamed keys, bad values.
    const junk = fc.oneof(
      fc.constant(undefined),
      fc.constant(null),
      fc.integer(),
      fc.string(),
      fc.constant([]),
      fc.constant({}),
      fc.constant("yesterday"),
      fc.constant("good"),
      fc.constant("2024-01-01 10:00"),
      fc.constant(["a", "b"]),
    );
    fc.assert(
      fc.property(fc.nat(), fc.nat(), junk, fc.boolean(), (pick, depthPick, value, rename) => {
        const u = user0();
        // Collect every (parent, key) in the user object and mutate one of them.
        const slots: Array<[FixtureJson, string | number]> = [];
        const walk = (v: FixtureJson) => {
          if (v && typeof v === "object")
            for (const k of Object.keys(v)) {
              slots.push([v, Array.isArray(v) ? Number(k) : k]);
              walk(v[k]);
            }
        };
        walk(u);
        const [parent, key] = slots[(pick + depthPick) % slots.length];
        if (rename && !Array.isArray(parent)) {
          const v = parent[key];
          delete parent[key];
          parent[`${String(key)}_x`] = v;
        } else if (value === undefined && !Array.isArray(parent)) delete parent[key];
        else parent[key] = value;
        expect(isValidUserFast(u)).toBe(userSchema.safeParse(u).success);
      }),
      { numRuns: 600, seed: 7 },
    );
  });
});
