import { eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Db } from "@/db/client";
import { datasets, experiments } from "@/db/schema";
import { ConflictError } from "@/lib/errors";
import { tempDb } from "@/test/db";
import { FIXTURE_HF, FIXTURE_JSONL, FIXTURE_STATS, PALSET_EN, PALSET_ZH } from "@/test/fixtures";
import { importHicupid } from "./hicupid/import";
import { importPalset } from "./palset/import";
import { getDatasetStats } from "./stats";

let t: ReturnType<typeof tempDb>;
let db: Db;
beforeEach(() => {
  t = tempDb();
  db = t.db;
});
afterEach(() => t.cleanup());

/** A row that refers to the data set, as experiments, memories and campaigns will. */
function addExperiment(datasetId: number): number {
  return db.insert(experiments).values({ name: "keeps its data set", datasetId, config: {} }).returning({ id: experiments.id }).get().id;
}
const experimentOf = (id: number) => db.select().from(experiments).where(eq(experiments.id, id)).get();

describe("the replace rule (one for every kind)", () => {
  it("replacing a HiCUPID data set keeps its id and name, swaps its contents, and what refers to it survives", async () => {
    const first = await importHicupid(db, { paths: [FIXTURE_HF], name: "hc" });
    const exp = addExperiment(first.datasetId);
    const second = await importHicupid(db, { paths: [FIXTURE_JSONL], name: "hc", replace: true });
    expect(second.datasetId).toBe(first.datasetId);
    expect(experimentOf(exp)?.datasetId).toBe(first.datasetId);
    const row = db.select().from(datasets).where(eq(datasets.id, first.datasetId)).get()!;
    expect(row).toMatchObject({ name: "hc", kind: "hicupid", source: "jsonl" });
    // Old rows are gone, not added to: the counts are one fixture's.
    expect(getDatasetStats(db, "hc")).toEqual(FIXTURE_STATS);
  });

  it("replacing a PAL-Set data set keeps its id and what refers to it", async () => {
    const first = await importPalset(db, { paths: [PALSET_EN], name: "pal" });
    const exp = addExperiment(first.datasetId);
    const second = await importPalset(db, { paths: [PALSET_ZH], name: "pal", replace: true });
    expect(second.datasetId).toBe(first.datasetId);
    expect(second.language).toBe("zh");
    expect(experimentOf(exp)?.datasetId).toBe(first.datasetId);
  });

  it("never replaces a data set of another kind, and changes nothing", async () => {
    const hc = await importHicupid(db, { paths: [FIXTURE_JSONL], name: "taken" });
    const exp = addExperiment(hc.datasetId);
    await expect(importPalset(db, { paths: [PALSET_EN], name: "taken", replace: true })).rejects.toThrow(
      new ConflictError('"taken" is a HiCUPID data set; a PAL-Set import does not replace it'),
    );
    expect(getDatasetStats(db, "taken")).toEqual(FIXTURE_STATS);
    expect(experimentOf(exp)?.datasetId).toBe(hc.datasetId);
  });
});
