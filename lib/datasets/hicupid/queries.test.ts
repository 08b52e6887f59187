import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/db/client";
import { tempDb } from "@/test/db";
import { importHicupid } from "./import";
import { getHcDialogues, getHcUser, hcQaFacets, listHcQa, listHcUsers } from "./queries";
import { FIXTURE_HF, copyJsonlFixture, tempDir } from "@/test/hicupid";

let db: Db;
let id: number;
let other: number;
const cleanups: (() => void)[] = [];

beforeAll(async () => {
  const t = tempDb();
  db = t.db;
  cleanups.push(t.cleanup);
  id = (await importHicupid(db, { paths: [FIXTURE_HF], name: "demo" })).datasetId;
  // A second set with more users, so lists must stay within their data set.
  const d = tempDir();
  cleanups.push(d.cleanup);
  copyJsonlFixture(d.dir, (rel, rows) => [...rows, ...rows.map((r) => ({ ...r, user_id: Number(r.user_id) + 10 }))]);
  other = (await importHicupid(db, { paths: [d.dir], name: "other" })).datasetId;
});
afterAll(() => cleanups.forEach((c) => c()));

describe("listHcUsers", () => {
  it("lists a data set's users in file order with their counts", () => {
    const r = listHcUsers(db, id);
    expect(r.total).toBe(3);
    expect(r.rows[0]).toEqual({ userKey: "0", position: 0, dialogues: 10, turns: 22, qa: 5, persona: 5, profile: 2, schedule: 3 });
    expect(r.rows.map((u) => u.userKey)).toEqual(["0", "1", "2"]);
    expect(listHcUsers(db, other).total).toBe(6);
  });

  it("sorts (numeric keys numerically), filters and pages on the server", () => {
    expect(listHcUsers(db, other, { sort: "userKey", dir: "desc" }).rows.map((u) => u.userKey)).toEqual(["12", "11", "10", "2", "1", "0"]);
    const filtered = listHcUsers(db, other, { filter: "1" });
    expect(filtered.rows.map((u) => u.userKey)).toEqual(["1", "10", "11", "12"]);
    expect(filtered.total).toBe(4);
    const page2 = listHcUsers(db, other, { page: 2, pageSize: 4 });
    expect(page2).toMatchObject({ total: 6, page: 2, pageSize: 4 });
    // File order: the train dialogue file's users (0, 1, 10, 11), then test_2's (2, 12).
    expect(page2.rows.map((u) => u.userKey)).toEqual(["2", "12"]);
    // Equal counts fall back to file order; an unknown sort key falls back to position.
    expect(listHcUsers(db, other, { sort: "qa", dir: "desc" }).rows.map((u) => u.userKey)).toEqual(["0", "1", "10", "11", "2", "12"]);
    expect(listHcUsers(db, id, { sort: "nope" as never }).rows.map((u) => u.userKey)).toEqual(["0", "1", "2"]);
  });
});

describe("getHcUser", () => {
  it("returns the history in order and grouped by type, turns included", () => {
    const u = getHcUser(db, id, "1")!;
    expect(u).toMatchObject({ userKey: "1", dialogues: 10, turns: 22, qa: 5 });
    expect(u.history.map((d) => d.dialogueKey)).toEqual(["0", "1", "2", "3", "4", "5", "6", "7", "8", "9"]);
    expect(u.byType.persona).toHaveLength(5);
    expect(u.byType.profile).toHaveLength(2);
    expect(u.byType.schedule.map((d) => d.dialogueKey)).toEqual(["7", "8", "9"]);
    expect(u.byType.other).toEqual([]);
    const sourdough = u.byType.persona[2];
    expect(sourdough.metadata).toEqual({ persona: { relation: "likes", entity: "Sourdough baking" } });
    expect(sourdough.turns.map((t) => t.position)).toEqual([0, 1, 2, 3]);
    expect(sourdough.turns[1].user).toMatch(/^I bake sourdough every weekend/);
    expect(sourdough.turns[0].extra).toBeNull();
  });

  it("returns null for a user the data set does not have", () => {
    expect(getHcUser(db, id, "10")).toBeNull();
    expect(getHcUser(db, other, "10")).not.toBeNull();
  });

  it("fetches a QA pair's relevant dialogues", () => {
    const qa = listHcQa(db, id, { userKey: "0", type: "profile" }).rows[0];
    const ds = getHcDialogues(db, id, "0", qa.dialogueIds);
    expect(ds.map((d) => [d.dialogueKey, d.type])).toEqual([
      ["3", "persona"],
      ["5", "profile"],
      ["6", "profile"],
    ]);
    expect(ds[0].turns).toHaveLength(3);
  });
});

describe("listHcQa", () => {
  it("lists QA pairs in file order with both answers, ids and nested metadata", () => {
    const r = listHcQa(db, id);
    expect(r.total).toBe(15);
    expect(r.rows.map((q) => q.position)).toEqual([...Array(15).keys()]);
    expect(r.rows[0]).toMatchObject({
      userKey: "0",
      split: "train",
      type: "persona",
      question: "What are some good activities to keep a dog busy on a rainy day?",
      dialogueIds: ["1"],
      metadata: { persona: { relation: "owns", entity: "A golden retriever named Max" } },
      extra: null,
    });
    expect(r.rows[0].personalizedAnswer).toMatch(/Max/);
    expect(r.rows[0].generalAnswer).not.toMatch(/Max/);
  });

  it("filters by user, type and split, and pages", () => {
    expect(listHcQa(db, id, { split: "test_1" }).total).toBe(4);
    expect(listHcQa(db, id, { type: "schedule", split: "train" }).rows.map((q) => q.userKey)).toEqual(["0", "1", "1"]);
    expect(listHcQa(db, id, { userKey: "2" }).rows.every((q) => q.split === "test_2")).toBe(true);
    expect(listHcQa(db, other, { userKey: "12" }).total).toBe(5);
    const p = listHcQa(db, id, { page: 2, pageSize: 10 });
    expect(p).toMatchObject({ total: 15, page: 2, pageSize: 10 });
    expect(p.rows).toHaveLength(5);
  });

  it("counts QA pairs by split and type", () => {
    expect(hcQaFacets(db, id)).toEqual([
      { split: "test_1", type: "persona", count: 2 },
      { split: "test_1", type: "profile", count: 1 },
      { split: "test_1", type: "schedule", count: 1 },
      { split: "test_2", type: "persona", count: 2 },
      { split: "test_2", type: "profile", count: 1 },
      { split: "test_2", type: "schedule", count: 2 },
      { split: "train", type: "persona", count: 2 },
      { split: "train", type: "profile", count: 1 },
      { split: "train", type: "schedule", count: 3 },
    ]);
  });
});

describe("query plans", () => {
  it("uses indexes, not table scans, for the per-user and per-set lookups", () => {
    const plan = (sql: string, ...args: unknown[]) =>
      (db.$client.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...args) as { detail: string }[]).map((r) => r.detail).join("; ");
    expect(plan("SELECT * FROM hc_dialogues WHERE user_id = ?", 1)).toMatch(/USING INDEX hc_dialogues_user_key_split/);
    expect(plan("SELECT * FROM hc_turns WHERE dialogue_id = ?", 1)).toMatch(/USING INDEX hc_turns_dialogue/);
    expect(plan("SELECT * FROM hc_users WHERE dataset_id = ?", 1)).toMatch(/USING INDEX hc_users_dataset_key/);
    expect(plan("SELECT * FROM hc_qa WHERE dataset_id = ? AND split = ?", 1, "train")).toMatch(/USING INDEX hc_qa_dataset/);
    expect(plan("SELECT * FROM hc_qa WHERE user_id = ? ORDER BY position", 1)).toMatch(/USING INDEX hc_qa_user/);
    expect(plan("SELECT * FROM hc_qa WHERE dataset_id = ? ORDER BY position LIMIT 50", 1)).toMatch(/USING INDEX hc_qa_dataset_position/);
  });
});
