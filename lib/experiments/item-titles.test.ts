/** HiCUPID items are titled by their question and user, from the imported fixture (real SQLite). */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempDb } from "@/test/db";
import { FIXTURE_JSONL } from "@/test/fixtures";
import { importHicupid } from "@/lib/datasets/hicupid/import";
import { listHcItems, loadHcItem } from "@/lib/tasks/hicupid/items";
import { formatTitle, itemTitler } from "./item-titles";

describe("item titles of HiCUPID", () => {
  let t: ReturnType<typeof tempDb>;
  let datasetId: number;
  beforeAll(async () => {
    t = tempDb();
    datasetId = (await importHicupid(t.db, { paths: [FIXTURE_JSONL], name: "hc" })).datasetId;
  });
  afterAll(() => t.cleanup());

  it("reads each question with its user; an unknown item has none", () => {
    const items = listHcItems(t.db, datasetId, "all", ["test_1", "test_2"]);
    expect(items.length).toBeGreaterThan(0);
    const titleOf = itemTitler(t.db, datasetId, "hicupid");
    for (const it of items) {
      const q = loadHcItem(t.db, datasetId, it.itemKey).question;
      expect(titleOf(it.itemKey)).toBe(formatTitle(q, it.userKey));
      expect(titleOf(it.itemKey).startsWith(q.replace(/\s+/g, " ").trim().slice(0, 40))).toBe(true);
    }
    expect(titleOf("nobody/test_1/0")).toBe("");
  });
});
