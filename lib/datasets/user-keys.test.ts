/** The user ids the New experiment form offers as checkboxes: both kinds, sorted, capped with the total. */
import { afterAll, describe, expect, it } from "vitest";
import { tempDb } from "@/test/db";
import { FIXTURE_JSONL, PALSET_EN } from "@/test/fixtures";
import { importPalset } from "./palset/import";
import { importHicupid } from "./hicupid/import";
import { datasetUserKeys } from "./user-keys";

describe("datasetUserKeys", () => {
  const t = tempDb();
  afterAll(() => t.cleanup());
  it("lists a PAL-Set's and a HiCUPID set's users, sorted, at most `limit` with the total", async () => {
    const pal = await importPalset(t.db, { paths: [PALSET_EN], name: "en", lang: "en" });
    const hc = await importHicupid(t.db, { paths: [FIXTURE_JSONL], name: "hc" });
    // fixtures/palset/en holds users 0000-0002; fixtures/hicupid 3 users (test/fixtures.ts FIXTURE_STATS)
    expect(datasetUserKeys(t.db, pal.datasetId)).toEqual({ users: ["0000", "0001", "0002"], total: 3 });
    const h = datasetUserKeys(t.db, hc.datasetId);
    expect([h.users.length, h.total]).toEqual([3, 3]);
    expect([...h.users].sort()).toEqual(h.users);
    expect(datasetUserKeys(t.db, pal.datasetId, 2)).toEqual({ users: ["0000", "0001"], total: 3 });
  });
});
