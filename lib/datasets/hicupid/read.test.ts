import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { DatasetError } from "../types";
import { findSources, readRows, splitFromFileName } from "./read";
import { FIXTURE_HF, FIXTURE_JSONL, readJsonl, tempDir, writeJsonl, writeParquetAuto } from "@/test/hicupid";

let cleanups: (() => void)[] = [];
afterEach(() => {
  cleanups.forEach((c) => c());
  cleanups = [];
});
function tmp() {
  const t = tempDir();
  cleanups.push(t.cleanup);
  return t.dir;
}

describe("splitFromFileName", () => {
  it.each([
    ["train-00000-of-00001.parquet", "train"],
    ["test_1-00001-of-00002.parquet", "test_1"],
    ["test_2-00000-of-00001-15d04abb83a4fb8e.parquet", "test_2"],
    ["test-00000-of-00001.parquet", "test"],
    ["test_1.jsonl", "test_1"],
    ["qa_test_2.jsonl", "test_2"],
    ["validation.jsonl", "validation"],
    ["holdout.jsonl", "holdout"],
  ])("%s → %s", (name, split) => expect(splitFromFileName(name)).toBe(split));
});

describe("findSources", () => {
  it("finds the HF layout: dialogue before qa, splits in order", async () => {
    const { sources, skipped } = await findSources([FIXTURE_HF]);
    expect(sources.map((s) => [s.label, s.config, s.split, s.format])).toEqual([
      ["dialogue/train-00000-of-00001.parquet", "dialogue", "train", "parquet"],
      ["dialogue/test_2-00000-of-00001.parquet", "dialogue", "test_2", "parquet"],
      ["qa/train-00000-of-00001.parquet", "qa", "train", "parquet"],
      ["qa/test_1-00000-of-00001.parquet", "qa", "test_1", "parquet"],
      ["qa/test_2-00000-of-00001.parquet", "qa", "test_2", "parquet"],
    ]);
    expect(skipped).toEqual([]);
  });

  it("takes a list of files, in any order, and sorts them the same way", async () => {
    const files = ["qa/test_2.jsonl", "dialogue/train.jsonl", "qa/train.jsonl"].map((f) => path.join(FIXTURE_JSONL, f));
    const { sources } = await findSources(files);
    expect(sources.map((s) => s.label)).toEqual(["dialogue/train.jsonl", "qa/train.jsonl", "qa/test_2.jsonl"]);
  });

  it("tells the config from the columns when no directory names it", async () => {
    const dir = tmp();
    writeJsonl(path.join(dir, "turns_train.jsonl"), readJsonl(path.join(FIXTURE_JSONL, "dialogue/train.jsonl")));
    writeParquetAuto(path.join(dir, "pairs_test_1.parquet"), readJsonl(path.join(FIXTURE_JSONL, "qa/test_1.jsonl")));
    const { sources } = await findSources([dir]);
    expect(sources.map((s) => [s.label, s.config, s.split])).toEqual([
      ["turns_train.jsonl", "dialogue", "train"],
      ["pairs_test_1.parquet", "qa", "test_1"],
    ]);
  });

  it("refuses a file whose config cannot be told", async () => {
    const dir = tmp();
    writeJsonl(path.join(dir, "train.jsonl"), [{ user_id: 1, text: "hi" }]);
    await expect(findSources([dir])).rejects.toThrow(/train\.jsonl: cannot tell whether it holds dialogue or qa rows/);
  });

  it("skips the evaluation config and ignores non-data files", async () => {
    const dir = tmp();
    fs.cpSync(FIXTURE_JSONL, dir, { recursive: true });
    writeJsonl(path.join(dir, "evaluation/test_1.jsonl"), [{ anything: 1 }]);
    fs.writeFileSync(path.join(dir, "README.md"), "# card\n");
    const { sources, skipped } = await findSources([dir]);
    expect(sources).toHaveLength(5);
    expect(skipped).toEqual(["evaluation/test_1.jsonl"]);
  });

  it("names a path that does not exist", async () => {
    await expect(findSources(["/no/such/dir"])).rejects.toThrow(new DatasetError("/no/such/dir: no such file or directory"));
  });
});

describe("readRows", () => {
  it("reads parquet structs and lists as plain values (ids as bigint)", async () => {
    const { sources } = await findSources([path.join(FIXTURE_HF, "qa/train-00000-of-00001.parquet")]);
    const rows = [];
    for await (const chunk of readRows(sources[0])) rows.push(...chunk);
    expect(rows).toHaveLength(6);
    expect(rows[0].where).toBe("row 1");
    expect(rows[0].values.user_id).toBe(0n);
    expect(rows[0].values.dialogue_id).toEqual([1n]);
    expect(rows[0].values.metadata).toEqual({ persona: { relation: "owns", entity: "A golden retriever named Max" } });
  });

  it("reads JSONL in chunks, naming lines (blank lines skipped but counted)", async () => {
    const dir = tmp();
    fs.writeFileSync(path.join(dir, "qa.jsonl"), '{"a":1}\n\n{"a":2}\n{"a":3}\n');
    const chunks = [];
    for await (const chunk of readRows({ file: path.join(dir, "qa.jsonl"), label: "qa.jsonl", format: "jsonl" }, 2)) chunks.push(chunk);
    expect(chunks.map((c) => c.map((r) => r.where))).toEqual([["line 1", "line 3"], ["line 4"]]);
  });

  it("names the line of invalid JSON", async () => {
    const dir = tmp();
    fs.writeFileSync(path.join(dir, "qa.jsonl"), '{"a":1}\n{"a":\n');
    const read = async () => {
      for await (const _ of readRows({ file: path.join(dir, "qa.jsonl"), label: "qa/train.jsonl", format: "jsonl" }));
    };
    await expect(read()).rejects.toThrow(/^qa\/train\.jsonl: line 2: invalid JSON/);
  });
});
