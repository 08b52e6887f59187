/**
 * The embedding cache's decoded vectors (issue 35): kept in the process once read or written, equal to
 * what the table holds, and kept in step with the table when another process wrote a key first.
 */
import { afterAll, describe, expect, it } from "vitest";
import { openDb } from "@/db/client";
import { tempDb } from "@/test/db";
import { cachedVectors, storeVectors } from "./cache";

const t = tempDb();
afterAll(() => t.cleanup());

describe("cachedVectors", () => {
  it("gives the stored float32 vectors, from the process once read, and another process's vector where it wrote first", () => {
    const other = openDb(t.file);
    try {
      const stored = storeVectors(t.db, "m", [{ key: "k1", vector: [0.1, 0.2, 0.3] }]);
      expect(stored).toEqual([[0.1, 0.2, 0.3].map(Math.fround)]);
      // The other connection reads it from the table: the same numbers.
      expect(cachedVectors(other, ["k1"]).get("k1")).toEqual(stored[0]);
      // Read once, kept: the row gone from the table (never done by the app) still answers here.
      t.db.$client.prepare("DELETE FROM embedding_cache WHERE key = 'k1'").run();
      expect(cachedVectors(t.db, ["k1", "k1", "nope"])).toEqual(new Map([["k1", stored[0]]]));

      // First writer wins: the other process stored k2 first, so this process's store does not replace it
      // and the next read here gives the table's vector, not the one this process tried to store.
      storeVectors(other, "m", [{ key: "k2", vector: [1, 2] }]);
      storeVectors(t.db, "m", [{ key: "k2", vector: [3, 4] }]);
      expect(cachedVectors(t.db, ["k2"]).get("k2")).toEqual([1, 2]);
      expect(cachedVectors(t.db, ["nope"]).size).toBe(0);
    } finally {
      other.$client.close();
    }
  });
});
