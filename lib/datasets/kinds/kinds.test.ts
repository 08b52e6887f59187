import { afterEach, describe, expect, it } from "vitest";
import { tempDb } from "@/test/db";
import { FIXTURE_JSONL, FIXTURE_STATS } from "@/test/fixtures";
import { InvalidInputError } from "@/lib/errors";
import { parseManifest, plannedPaths } from "../browse/upload";
import { DATASET_KIND_IDS, DATASET_KIND_LIST, datasetKind, uploadKinds } from "./index";

let t: ReturnType<typeof tempDb> | undefined;
afterEach(() => t?.cleanup());

describe("data-set kind registry", () => {
  it("lists each kind once, with what the pages, the upload and the CLI read", () => {
    expect(DATASET_KIND_IDS).toEqual(["palset", "hicupid", "locomo", "longmemeval"]);
    expect(new Set(DATASET_KIND_LIST.map((k) => k.id)).size).toBe(DATASET_KIND_LIST.length);
    for (const k of DATASET_KIND_LIST) {
      expect(k.upload.extensions.length).toBeGreaterThan(0);
      for (const e of k.upload.extensions) expect(e).toMatch(/^\.[a-z0-9]+$/);
      // The memory timelines a run iterates over: users, LoCoMo's conversations, LongMemEval's questions.
      expect(k.counts.map(([key]) => key).some((c) => ["users", "conversations", "questions"].includes(c))).toBe(true);
    }
    expect(uploadKinds().map((k) => [k.id, k.label])).toEqual([
      ["palset", "PAL-Set"],
      ["hicupid", "HiCUPID"],
      ["locomo", "LoCoMo"],
      ["longmemeval", "LongMemEval"],
    ]);
    expect(() => datasetKind("movies")).toThrow(
      new InvalidInputError('kind: expected one of palset, hicupid, locomo, longmemeval, got "movies"'),
    );
  });

  it("the upload accepts the registered kinds and each kind's extensions only", () => {
    expect(() => parseManifest({ kind: "movies", name: "x", files: [{ path: "a.json", size: 1 }] })).toThrow(/^kind: /);
    const hc = parseManifest({ kind: "hicupid", name: "x", files: [{ path: "qa/train.jsonl", size: 1 }] });
    expect(plannedPaths("/tmp/up", hc)).toEqual(["/tmp/up/qa/train.jsonl"]);
    const wrong = parseManifest({ kind: "hicupid", name: "x", files: [{ path: "input.json", size: 1 }] });
    expect(() => plannedPaths("/tmp/up", wrong)).toThrow('input.json: a HiCUPID upload takes .parquet, .jsonl, .ndjson files, not ".json"');
  });

  it("imports through the registered importer; stats and clearContents work on the stored rows", async () => {
    t = tempDb();
    const kind = datasetKind("hicupid");
    const importer = await kind.importer();
    const r = await importer(t.db, { paths: [FIXTURE_JSONL], name: "hc" });
    expect(kind.stats(t.db, r.datasetId)).toEqual(FIXTURE_STATS);
    t.db.transaction((tx) => kind.clearContents(tx, r.datasetId));
    expect(kind.stats(t.db, r.datasetId)).toEqual({ users: 0, dialogues: 0, turns: 0, qa: 0 });
  });
});
