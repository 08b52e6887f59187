import fs from "node:fs";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Db } from "@/db/client";
import { datasets } from "@/db/schema";
import { tempDb } from "@/test/db";
import { DatasetError, type ImportProgress } from "../types";
import { ConflictError } from "@/lib/errors";
import { importHicupid } from "./import";
import { hicupidStats } from "./stats";
import {
  FIXTURE_HF,
  FIXTURE_JSONL,
  FIXTURE_STATS,
  copyJsonlFixture,
  dumpDataset,
  readJsonl,
  tableCounts,
  tempDir,
  writeParquetAuto,
  type Row,
} from "@/test/hicupid";

let db: Db;
let cleanups: (() => void)[] = [];
beforeEach(() => {
  const t = tempDb();
  db = t.db;
  cleanups.push(t.cleanup);
});
afterEach(() => {
  cleanups.forEach((c) => c());
  cleanups = [];
});
function tmp() {
  const t = tempDir();
  cleanups.push(t.cleanup);
  return t.dir;
}

/**
 * The JSONL fixture re-written as parquet the way a writer without nested types would: `metadata` and
 * the qa `dialogue_id` list as JSON text in plain string columns. `shards` splits a split over files.
 */
function parquetCopy(dir: string, shards: Record<string, number> = {}) {
  for (const config of ["dialogue", "qa"]) {
    for (const f of fs.readdirSync(path.join(FIXTURE_JSONL, config))) {
      const split = f.replace(/\.jsonl$/, "");
      const rows = readJsonl(path.join(FIXTURE_JSONL, config, f)).map((r) => ({
        ...r,
        metadata: JSON.stringify(r.metadata),
        ...(config === "qa" ? { dialogue_id: JSON.stringify(r.dialogue_id) } : {}),
      }));
      const n = shards[`${config}/${split}`] ?? 1;
      const per = Math.ceil(rows.length / n);
      for (let i = 0; i < n; i++) {
        const name = `${split}-${String(i).padStart(5, "0")}-of-${String(n).padStart(5, "0")}.parquet`;
        writeParquetAuto(path.join(dir, config, name), rows.slice(i * per, (i + 1) * per));
      }
    }
  }
}

describe("importHicupid: the fixture", () => {
  it("imports the parquet layout and the JSONL layout to the same stats and rows", async () => {
    const hf = await importHicupid(db, { paths: [FIXTURE_HF], name: "hf" });
    const jl = await importHicupid(db, { paths: [FIXTURE_JSONL], name: "jl" });
    expect(hf.stats).toEqual(FIXTURE_STATS);
    expect(jl.stats).toEqual(FIXTURE_STATS);
    expect(hicupidStats(db, hf.datasetId)).toEqual(FIXTURE_STATS);
    expect(hicupidStats(db, jl.datasetId)).toEqual(FIXTURE_STATS);
    expect(dumpDataset(db, hf.datasetId)).toEqual(dumpDataset(db, jl.datasetId));
    expect(hf.report).toEqual(jl.report);
    expect(hf.report.warnings).toEqual([]);
    expect(hf).toMatchObject({ kind: "hicupid", language: "en", name: "hf" });
  });

  it("stores what the fixture says: splits, types, order, nested metadata, dialogue id lists", async () => {
    const r = await importHicupid(db, { paths: [FIXTURE_HF], name: "hf" });
    const dump = dumpDataset(db, r.datasetId);
    expect(
      dump.users.map((u) => [
        u.userKey,
        u.dialogueCount,
        u.turnCount,
        u.qaCount,
        u.personaDialogues,
        u.profileDialogues,
        u.scheduleDialogues,
      ]),
    ).toEqual([
      ["0", 10, 22, 5, 5, 2, 3],
      ["1", 10, 22, 5, 5, 2, 3],
      ["2", 10, 22, 5, 5, 2, 3],
    ]);
    // History order is file order: persona 0-4, profile 5-6, schedule 7-9.
    const u0 = dump.dialogues.filter((d) => d.userKey === "0");
    expect(u0.map((d) => [d.dialogueKey, d.type, d.split])).toEqual(
      ["persona", "persona", "persona", "persona", "persona", "profile", "profile", "schedule", "schedule", "schedule"].map((t, i) => [
        String(i),
        t,
        "train",
      ]),
    );
    expect(dump.dialogues.filter((d) => d.userKey === "2").every((d) => d.split === "test_2")).toBe(true);
    expect(u0[1].metadata).toEqual({ persona: { relation: "owns", entity: "A golden retriever named Max" } });

    const profileQa = dump.qa.find((q) => q.userKey === "0" && q.type === "profile")!;
    expect(profileQa.dialogueIds).toEqual(["5", "6", "3"]);
    expect(profileQa.metadata).toEqual({
      persona: { relation: "is interested in", entity: "Watercolor painting" },
      profile: {
        age: 34,
        gender: "Female",
        personality: "Curious, organized, warm",
        occupation: "Veterinary nurse",
        income_range: "$40,000 - $55,000",
      },
    });
    expect(r.report.counts).toMatchObject({
      "qa.train": 6,
      "qa.test_1": 4,
      "qa.test_2": 5,
      "qa.persona": 6,
      "qa.profile": 3,
      "qa.schedule": 6,
      "dialogues.train": 20,
      "dialogues.test_2": 10,
    });
  });

  it("records the data set with its stats and report", async () => {
    const r = await importHicupid(db, { paths: [FIXTURE_JSONL], name: "demo" });
    const row = db.select().from(datasets).where(eq(datasets.id, r.datasetId)).get()!;
    expect(row).toMatchObject({ name: "demo", kind: "hicupid", language: "en", stats: FIXTURE_STATS, source: "jsonl" });
    expect(row.report).toEqual(r.report);
  });

  it("reports progress through reading, validating, writing and done", async () => {
    const phases: ImportProgress[] = [];
    await importHicupid(db, { paths: [FIXTURE_HF], name: "p", onProgress: (p) => phases.push(p) });
    expect([...new Set(phases.map((p) => p.phase))]).toEqual(["reading", "validating", "writing", "done"]);
    const writing = phases.filter((p) => p.phase === "writing");
    expect(writing.at(-1)).toMatchObject({ done: 3 + 30 + 66 + 15, total: 3 + 30 + 66 + 15 });
  });

  it("defaults the name to the directory's base name", async () => {
    const r = await importHicupid(db, { paths: [FIXTURE_JSONL] });
    expect(r.name).toBe("jsonl");
  });
});

describe("importHicupid: layouts", () => {
  it("imports a split sharded over two parquet files as one split; JSON-string metadata and id lists as nested", async () => {
    const dir = tmp();
    parquetCopy(dir, { "dialogue/train": 2, "qa/train": 2 });
    expect(fs.readdirSync(path.join(dir, "qa"))).toContain("train-00001-of-00002.parquet");
    const sharded = await importHicupid(db, { paths: [dir], name: "sharded" });
    const ref = await importHicupid(db, { paths: [FIXTURE_HF], name: "ref" });
    expect(sharded.stats).toEqual(FIXTURE_STATS);
    expect(sharded.report.counts["qa.train"]).toBe(6);
    expect(dumpDataset(db, sharded.datasetId)).toEqual(dumpDataset(db, ref.datasetId));
  });

  it("takes a list of files and a split column over the file name", async () => {
    const dir = tmp();
    const qa = readJsonl(path.join(FIXTURE_JSONL, "qa/train.jsonl")).map((r) => ({ ...r, split: "dev" }));
    writeParquetAuto(path.join(dir, "all_qa.parquet"), qa);
    const r = await importHicupid(db, {
      paths: [path.join(FIXTURE_JSONL, "dialogue/train.jsonl"), path.join(dir, "all_qa.parquet")],
      name: "list",
    });
    expect(r.stats).toEqual({ users: 2, dialogues: 20, turns: 44, qa: 6 });
    expect(r.report.counts["qa.dev"]).toBe(6);
  });

  it("keeps unknown columns in extra and lists them", async () => {
    const dir = tmp();
    copyJsonlFixture(dir, (rel, rows) =>
      rows.map((r, i) =>
        rel === "qa/train.jsonl" ? { ...r, question_id: `q${i}`, n_hop: 1 } : rel === "dialogue/train.jsonl" ? { ...r, turn_note: i } : r,
      ),
    );
    const r = await importHicupid(db, { paths: [dir], name: "extra" });
    const dump = dumpDataset(db, r.datasetId);
    expect(dump.qa[0].extra).toEqual({ question_id: "q0", n_hop: 1 });
    expect(dump.qa.find((q) => q.split === "test_1")!.extra).toBeNull();
    expect(dump.turns[0].extra).toEqual({ turn_note: 0 });
    expect(r.report.unrecognised).toEqual(["dialogue.turn_note", "qa.n_hop", "qa.question_id"]);
  });

  it("types dialogues from their metadata when rows carry no type; notes a skipped evaluation config", async () => {
    const dir = tmp();
    copyJsonlFixture(dir, (rel, rows) => (rel.startsWith("dialogue/") ? rows.map(({ type: _t, ...r }) => r) : rows));
    fs.mkdirSync(path.join(dir, "evaluation"));
    fs.writeFileSync(path.join(dir, "evaluation/test_1.jsonl"), '{"judged": true}\n');
    const r = await importHicupid(db, { paths: [dir], name: "by-metadata" });
    const ref = await importHicupid(db, { paths: [FIXTURE_JSONL], name: "ref" });
    expect(dumpDataset(db, r.datasetId)).toEqual(dumpDataset(db, ref.datasetId));
    expect(r.report.warnings).toEqual([
      { code: "skipped-evaluation", message: expect.any(String), count: 1, examples: ["evaluation/test_1.jsonl"] },
    ]);
  });

  it("types dialogues from QA references when rows carry no type or metadata", async () => {
    const dir = tmp();
    copyJsonlFixture(dir, (rel, rows) => (rel.startsWith("dialogue/") ? rows.map(({ type: _t, metadata: _m, ...r }) => r) : rows));
    const r = await importHicupid(db, { paths: [dir], name: "untyped" });
    const types = dumpDataset(db, r.datasetId)
      .dialogues.filter((d) => d.userKey === "0")
      .map((d) => d.type);
    // User 0's QA pairs reference persona 0, 1, 3 (3 via the profile pair), profile 5, 6 and schedule 7, 9.
    expect(types).toEqual(["persona", "persona", null, "persona", null, "profile", "profile", "schedule", null, "schedule"]);
    const unknown = r.report.warnings.find((w) => w.code === "dialogue-type-unknown")!;
    expect(unknown.count).toBe(9);
    expect(unknown.examples[0]).toBe("dialogue/train.jsonl: line 8: user 0 dialogue 2");
  });

  it("warns about unknown dialogue ids, empty strings and users without dialogues", async () => {
    const dir = tmp();
    copyJsonlFixture(dir, (rel, rows) => {
      if (rel === "qa/test_1.jsonl") rows[0] = { ...rows[0], dialogue_id: [0, 99] };
      if (rel === "qa/test_2.jsonl") rows.push({ ...rows[0], user_id: 7, general_answer: " " });
      return rows;
    });
    const r = await importHicupid(db, { paths: [dir], name: "warn" });
    const byCode = Object.fromEntries(r.report.warnings.map((w) => [w.code, w]));
    expect(byCode["qa-unknown-dialogue"]).toMatchObject({
      count: 2,
      examples: ["qa/test_1.jsonl: line 1: user 0 dialogue 99", "qa/test_2.jsonl: line 6: user 7 dialogue 4"],
    });
    expect(byCode["empty-string"]).toMatchObject({ count: 1, examples: ['qa/test_2.jsonl: line 6: column "general_answer"'] });
    expect(byCode["user-without-dialogues"]).toMatchObject({ count: 1, examples: ["user 7"] });
    expect(r.stats.users).toBe(4);
  });
});

describe("importHicupid: refusals leave the database as it was", () => {
  async function expectRefused(paths: string[], message: string | RegExp, name = "bad") {
    await importHicupid(db, { paths: [FIXTURE_JSONL], name: "earlier" });
    const before = tableCounts(db);
    const earlier = dumpDataset(db, 1);
    const err = await importHicupid(db, { paths, name }).catch((e) => e);
    expect(err).toBeInstanceOf(DatasetError);
    if (typeof message === "string") expect(err.message).toBe(message);
    else expect(err.message).toMatch(message);
    expect(tableCounts(db)).toEqual(before);
    expect(dumpDataset(db, 1)).toEqual(earlier);
  }

  it("missing required column in a parquet file: names file, row and column", async () => {
    const dir = tmp();
    parquetCopy(dir);
    const file = path.join(dir, "qa/test_1-00000-of-00001.parquet");
    writeParquetAuto(
      file,
      readJsonl(path.join(FIXTURE_JSONL, "qa/test_1.jsonl")).map(({ question: _q, ...r }) => r),
    );
    await expectRefused([dir], 'qa/test_1-00000-of-00001.parquet: row 1: missing required column "question"');
  });

  it("missing required column in one JSONL line: names that line", async () => {
    const dir = tmp();
    copyJsonlFixture(dir, (rel, rows) => {
      if (rel === "dialogue/train.jsonl") delete rows[16].assistant;
      return rows;
    });
    await expectRefused([dir], 'dialogue/train.jsonl: line 17: missing required column "assistant"');
  });

  it("a value of the wrong type: names file, row, column and what was expected", async () => {
    const dir = tmp();
    parquetCopy(dir);
    const rows = readJsonl(path.join(FIXTURE_JSONL, "qa/test_2.jsonl")) as Row[];
    rows[2] = { ...rows[2], personalized_answer: null };
    writeParquetAuto(path.join(dir, "qa/test_2-00000-of-00001.parquet"), rows);
    await expectRefused([dir], 'qa/test_2-00000-of-00001.parquet: row 3: column "personalized_answer": expected a string, got null');
  });

  it("a user id that is neither integer nor string, and metadata that is not JSON", async () => {
    let dir = tmp();
    copyJsonlFixture(dir, (rel, rows) => (rel === "qa/train.jsonl" ? rows.map((r, i) => (i === 1 ? { ...r, user_id: 1.5 } : r)) : rows));
    await expectRefused([dir], 'qa/train.jsonl: line 2: column "user_id": expected an integer or a non-empty string, got number 1.5');
    cleanups.pop()!();
    const t = tempDb();
    db = t.db;
    cleanups.push(t.cleanup);
    dir = tmp();
    copyJsonlFixture(dir, (rel, rows) =>
      rel === "qa/train.jsonl" ? rows.map((r, i) => (i === 4 ? { ...r, metadata: "{persona" } : r)) : rows,
    );
    await expectRefused([dir], 'qa/train.jsonl: line 5: column "metadata": a string that is not valid JSON');
  });

  it("refuses a taken name; replace swaps the data set; a failed replace keeps the old one", async () => {
    const first = await importHicupid(db, { paths: [FIXTURE_HF], name: "demo" });
    await expect(importHicupid(db, { paths: [FIXTURE_JSONL], name: "demo" })).rejects.toThrow(
      new ConflictError('a data set named "demo" already exists (use --replace to replace it)'),
    );
    const second = await importHicupid(db, { paths: [FIXTURE_JSONL], name: "demo", replace: true });
    expect(second.datasetId).toBe(first.datasetId); // the replace rule keeps the id (see replace.test.ts)
    expect(
      db
        .select()
        .from(datasets)
        .all()
        .map((d) => d.name),
    ).toEqual(["demo"]);
    expect(hicupidStats(db, second.datasetId)).toEqual(FIXTURE_STATS);
    expect(tableCounts(db)).toEqual({ datasets: 1, hc_users: 3, hc_dialogues: 30, hc_turns: 66, hc_qa: 15 });

    const dir = tmp();
    copyJsonlFixture(dir, (rel, rows) => (rel === "qa/test_2.jsonl" ? rows.map(({ type: _t, ...r }) => r) : rows));
    const before = dumpDataset(db, second.datasetId);
    await expect(importHicupid(db, { paths: [dir], name: "demo", replace: true })).rejects.toThrow(
      'qa/test_2.jsonl: line 1: missing required column "type"',
    );
    expect(dumpDataset(db, second.datasetId)).toEqual(before);
  });

  it("a failure while writing rolls everything back", async () => {
    await importHicupid(db, { paths: [FIXTURE_JSONL], name: "earlier" });
    const before = tableCounts(db);
    const failing = (p: ImportProgress) => {
      if (p.phase === "writing" && p.done > 40) throw new Error("disk full");
    };
    await expect(importHicupid(db, { paths: [FIXTURE_HF], name: "later", onProgress: failing })).rejects.toThrow("disk full");
    expect(tableCounts(db)).toEqual(before);
  });
});
