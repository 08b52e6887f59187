/**
 * Nesting beyond MAX_JSON_DEPTH is refused with file, line and field at every way in (campaign upload,
 * judge verdicts, PAL-Set and HiCUPID import), nothing is stored, and an item stored before the bound
 * is presented as "cannot be shown" instead of breaking the response.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { tempDb } from "@/test/db";
import { FIXTURE_JSONL, PALSET_EN } from "@/test/fixtures";
import { assignments, campaignItems, campaigns, datasets, judgeRuns } from "@/db/schema";
import { createUser } from "@/lib/users/users";
import { createCampaign, importJudgeVerdicts, presentAssignment } from "@/lib/annotation";
import { importPalset } from "@/lib/datasets/palset/import";
import { importHicupid } from "@/lib/datasets/hicupid/import";
import { MAX_JSON_DEPTH, jsonTextTooDeep, valueTooDeep } from "./json-depth";
import type { Db } from "@/db/client";

const nestText = (n: number, inner = "1") => "[".repeat(n) + inner + "]".repeat(n);
const nestValue = (n: number): unknown => {
  let v: unknown = 1;
  for (let i = 0; i < n; i++) v = { a: v };
  return v;
};

describe("the depth checks", () => {
  it("count objects and arrays outside strings, up to the bound", () => {
    expect(MAX_JSON_DEPTH).toBe(64);
    expect(jsonTextTooDeep(nestText(64))).toBeNull();
    expect(jsonTextTooDeep(`{"s": "${"[{".repeat(500)}", "t": "\\"[["}`)).toBeNull();
    expect(jsonTextTooDeep(nestText(65))).toMatchObject({ line: 1, column: 65 });
    expect(valueTooDeep(nestValue(64))).toBeNull();
    expect(valueTooDeep(nestValue(65))).not.toBeNull();
  });

  it("name the line, the column and the field path, and never overflow the stack themselves", () => {
    const text = `{\n  "user": {"name": "x", "tags": [1, {"deep": ${nestText(70)}}]}\n}`;
    const t = jsonTextTooDeep(text)!;
    expect(t.line).toBe(2);
    expect(t.field).toMatch(/^user\.tags\[1\]\.deep…\[0\]\[0\]\[0\]$/);
    expect(jsonTextTooDeep(nestText(1_000_000))).not.toBeNull();
    expect(valueTooDeep(JSON.parse(nestText(100_000)))).not.toBeNull();
    expect(valueTooDeep({ a: [{ b: nestValue(70) }] })!.field).toMatch(/^a\[0\]\.b\.a…a\.a\.a$/);
  });
});

describe("every way in refuses deep nesting and stores nothing", () => {
  let t: ReturnType<typeof tempDb>;
  let db: Db;
  let owner: number;
  let annotator: number;
  let dir: string;
  beforeEach(async () => {
    t = tempDb();
    db = t.db;
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "pal-depth-"));
    owner = (await createUser(db, { email: "r@x.io", role: "researcher", password: "password-123" })).id;
    annotator = (await createUser(db, { email: "a@x.io", role: "annotator", password: "password-123" })).id;
  });
  afterEach(() => {
    t.cleanup();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const upload = (text: string) =>
    createCampaign(
      db,
      {
        name: "deep",
        kind: "output-rating",
        perItem: 1,
        annotatorIds: [annotator],
        source: { kind: "upload", fileName: "deep.jsonl", text },
      },
      owner,
    );

  it.each([1_000, 5_000])("a campaign upload with a %i-level item", (levels) => {
    const text = `{"id": "ok", "output": "fine"}\n{"id": "deep", "output": "x", "context": {"profile": ${nestText(levels)}}}\n`;
    expect(() => upload(text)).toThrow(/^deep\.jsonl:2: field "context\.profile\[0\]\[0\]…\[0\]\[0\]\[0\]": nested deeper than 64 levels/);
    expect(db.select().from(campaigns).all()).toEqual([]);
  });

  it("a judge-verdicts file with deep judgments", () => {
    const c = upload(`{"id": "i1", "output": "fine"}\n`);
    const text = `{"item": "i1", "dimension": "quality", "verdict": "2", "judgments": ${nestText(2_000)}}\n`;
    expect(() => importJudgeVerdicts(db, c.id, { name: "j", fileName: "v.jsonl", text }, owner)).toThrow(
      /^v\.jsonl:1: field "judgments.*": nested deeper than 64 levels/,
    );
    expect(db.select().from(judgeRuns).all()).toEqual([]);
  });

  it("a PAL-Set file (line and field named)", async () => {
    const file = path.join(dir, "input.json");
    const data = JSON.parse(fs.readFileSync(path.join(PALSET_EN, "input.json"), "utf8"));
    const firstUser = Object.keys(data)[0];
    data[firstUser].deep = JSON.parse(nestText(1_500));
    fs.writeFileSync(file, JSON.stringify(data, null, 1));
    await expect(importPalset(db, { paths: [file], name: "deep", lang: "en" })).rejects.toThrow(
      new RegExp(`^input\\.json:\\d+: field "${firstUser}\\.deep.*": nested deeper than 64 levels`),
    );
    expect(db.select().from(datasets).all()).toEqual([]);
  });

  it("a HiCUPID JSONL file (line and field named)", async () => {
    const file = path.join(dir, "train.jsonl");
    const lines = fs.readFileSync(path.join(FIXTURE_JSONL, "dialogue/train.jsonl"), "utf8").trim().split("\n");
    const row = JSON.parse(lines[2]);
    row.metadata = { persona: nestText(0), extra: JSON.parse(nestText(3_000)) };
    lines[2] = JSON.stringify(row);
    fs.writeFileSync(file, lines.join("\n") + "\n");
    await expect(importHicupid(db, { paths: [file], name: "deep" })).rejects.toThrow(
      /line 3: field "metadata\.extra.*": nested deeper than 64 levels/,
    );
    expect(db.select().from(datasets).all()).toEqual([]);
  });

  it("an item stored before the bound is presented as unrenderable, and the response serialises", () => {
    const c = upload(`{"id": "i1", "output": "fine"}\n{"id": "i2", "output": "fine"}\n`);
    const [first] = db.select().from(campaignItems).where(eq(campaignItems.campaignId, c.id)).all();
    db.$client.prepare("update campaign_items set content = ? where id = ?").run(`{"output": ${nestText(5_000)}}`, first.id);
    const a = db.select().from(assignments).where(eq(assignments.itemId, first.id)).get()!;
    const shown = presentAssignment(db, annotator, a.id);
    expect(shown.unrenderable).toMatch(/nested deeper than 64 levels/);
    expect(() => JSON.stringify(shown)).not.toThrow();
  });
});

describe("invalid UTF-8 in imported files", () => {
  let t: ReturnType<typeof tempDb>;
  let dir: string;
  beforeEach(() => {
    t = tempDb();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "pal-utf8-"));
  });
  afterEach(() => {
    t.cleanup();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("a PAL-Set file is refused with file and line", async () => {
    const file = path.join(dir, "input.json");
    const text = fs.readFileSync(path.join(PALSET_EN, "input.json"));
    const at = text.indexOf("\n", text.indexOf("\n") + 1) + 1; // start of line 3
    fs.writeFileSync(file, Buffer.concat([text.subarray(0, at), Buffer.from([0xff]), text.subarray(at)]));
    await expect(importPalset(t.db, { paths: [file], name: "bad", lang: "en" })).rejects.toThrow(/^input\.json:3: not valid UTF-8/);
    expect(t.db.select().from(datasets).all()).toEqual([]);
  });

  it("a HiCUPID JSONL file is refused with file and line", async () => {
    const file = path.join(dir, "train.jsonl");
    const lines = fs.readFileSync(path.join(FIXTURE_JSONL, "dialogue/train.jsonl"), "utf8").trim().split("\n");
    const bad = Buffer.from(lines[3].replace('"user":"', '"user":"caf\u0001'));
    bad[bad.indexOf(1)] = 0xe9; // Latin-1 é
    fs.writeFileSync(file, Buffer.concat([Buffer.from(lines.slice(0, 3).join("\n") + "\n"), bad, Buffer.from("\n")]));
    await expect(importHicupid(t.db, { paths: [file], name: "bad" })).rejects.toThrow(/train\.jsonl:4: not valid UTF-8/);
    expect(t.db.select().from(datasets).all()).toEqual([]);
  });
});
