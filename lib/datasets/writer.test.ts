/**
 * TableWriter builds one row's SQL with drizzle and repeats its tuple per batch: rows must land exactly as
 * drizzle's own insert writes them (SQL defaults, bound defaults, JSON encoded, a JS null kept as SQL NULL).
 */
import { afterEach, describe, expect, it } from "vitest";
import { tempDb } from "@/test/db";
import { cmThreads, datasets } from "@/db/schema";
import { TableWriter } from "./writer";

let t: ReturnType<typeof tempDb> | undefined;
afterEach(() => t?.cleanup());

const rowsOf = (table: string): Array<Record<string, unknown>> =>
  (t!.db.$client.prepare(`SELECT * FROM ${table} ORDER BY id`).all() as Array<Record<string, unknown>>).map(
    ({ id: _i, created_at, ...r }) => ({ ...r, created: typeof created_at === "number" && created_at > 0 }),
  );

describe("TableWriter", () => {
  it("writes what drizzle's insert writes, in call order, whatever the batch size", () => {
    t = tempDb();
    const sets = Array.from({ length: 7 }, (_, i) => ({
      name: `set ${i}`,
      kind: "locomo",
      report: i % 2 ? { qa: i, 'quote " and \\': [i] } : null,
      source: i === 3 ? undefined : `file ${i}.json`,
    }));
    // Reference: drizzle's own inserts, in a first database.
    t.db.transaction((tx) => sets.forEach((s) => tx.insert(datasets).values(s).run()));
    const expected = rowsOf("datasets");
    t.cleanup();

    t = tempDb();
    const ids = t.db.transaction((tx) => {
      const w = new TableWriter(tx, datasets, ["name", "kind", "report", "source"], 3);
      const first = w.insertReturningId(sets[0]);
      sets.slice(1, 6).forEach((s) => w.add(s));
      const last = w.insertReturningId(sets[6]); // flushes the two buffered rows first
      w.flush();
      expect(w.written).toBe(7);
      return [first, last];
    });
    expect(rowsOf("datasets")).toEqual(expected);
    expect(expected[1].report).toBe('{"qa":1,"quote \\" and \\\\":[1]}');
    expect(expected[0].report).toBeNull(); // SQL NULL, not the text "null"
    const names = t.db.$client.prepare("SELECT id, name FROM datasets WHERE id IN (?, ?) ORDER BY id").all(...ids);
    expect(names).toEqual([
      { id: ids[0], name: "set 0" },
      { id: ids[1], name: "set 6" },
    ]);
  });

  it("binds the schema's default values for the columns it is not given", () => {
    t = tempDb();
    t.db.transaction((tx) => {
      const datasetId = tx.insert(datasets).values({ name: "d", kind: "locomo" }).returning({ id: datasets.id }).get().id;
      const w = new TableWriter(tx, cmThreads, ["datasetId", "threadKey", "position"], 2);
      for (let i = 0; i < 5; i++) w.add({ datasetId, threadKey: `t${i}`, position: i });
      w.flush();
    });
    const rows = rowsOf("cm_threads");
    expect(rows).toHaveLength(5);
    expect(rows[4]).toMatchObject({
      thread_key: "t4",
      position: 4,
      session_count: 0,
      turn_count: 0,
      qa_count: 0,
      speaker_a: null,
      extra: null,
    });
  });

  it("refuses an unknown column", () => {
    t = tempDb();
    t.db.transaction((tx) => {
      expect(() => new TableWriter(tx, datasets, ["nope" as never])).toThrow("nope: no such column");
    });
  });
});
