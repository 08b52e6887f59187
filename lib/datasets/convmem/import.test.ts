/** LoCoMo and LongMemEval imports: counts, sessions stored once, timelines in date order, errors that name the place and change nothing. */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { spawnSync } from "node:child_process";
import { afterEach, describe, expect, it } from "vitest";
import { tempDb } from "@/test/db";
import { LOCOMO_CONV2, LOCOMO_DEMO, LONGMEMEVAL_DEMO, ROOT } from "@/test/fixtures";
import { datasetKind } from "../kinds";
import { importLocomo } from "../locomo/import";
import { readLocomo } from "../locomo/read";
import { importLongMemEval } from "../longmemeval/import";
import { datasetByName, listUserKeys, loadSessions } from "@/lib/assistants/core/sessions";

let t: ReturnType<typeof tempDb> | undefined;
const dirs: string[] = [];
afterEach(() => {
  t?.cleanup();
  t = undefined;
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

function tmpFile(name: string, value: unknown): string {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), "pal-cm-"));
  dirs.push(d);
  const f = path.join(d, name);
  fs.writeFileSync(f, typeof value === "string" ? value : JSON.stringify(value));
  return f;
}
const count = (table: string) => (t!.db.$client.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;

describe("LoCoMo import", () => {
  it("stores conversations, sessions, turns and QA; the stats equal the stored rows", async () => {
    t = tempDb();
    const progress: string[] = [];
    const r = await importLocomo(t.db, { paths: [LOCOMO_DEMO], name: "loc", onProgress: (p) => progress.push(p.phase) });
    expect(r.stats).toEqual({ conversations: 2, sessions: 4, turns: 12, qa: 10 });
    expect(datasetKind("locomo").stats(t.db, r.datasetId)).toEqual(r.stats);
    expect(progress).toContain("writing");
    expect(r.report.warnings.map((w) => [w.code, w.count])).toEqual([["empty-session", 1]]);
    const q = t.db.$client
      .prepare("SELECT item_key, answer, category, evidence, adversarial_answer FROM cm_qa ORDER BY position")
      .all() as Array<Record<string, unknown>>;
    expect(q[2]).toEqual({
      item_key: "conv-demo-1#2",
      answer: "pottery, running",
      category: 1,
      evidence: '["D1:2","D2:1"]',
      adversarial_answer: null,
    });
    expect(q[5]).toMatchObject({ category: 5, answer: "", adversarial_answer: "a blue vase" });
    expect(q[8]).toMatchObject({ answer: "2024" });
  });

  it("gives methods speaker_a on the user side, names kept, the date as the session's time", async () => {
    t = tempDb();
    await importLocomo(t.db, { paths: [LOCOMO_DEMO], name: "loc" });
    const ds = datasetByName(t.db, "loc");
    expect(listUserKeys(t.db, ds)).toEqual(["conv-demo-1", "conv-demo-2"]);
    const s = loadSessions(t.db, ds, "conv-demo-1");
    expect(s.map((x) => [x.key, x.timestamp])).toEqual([
      ["session_1", "10:05 am on 3 March, 2023"],
      ["session_2", "6:30 pm on 20 April, 2023"],
    ]);
    expect(s[0].dialogue[1].user).toBe(
      "Ines: Pottery sounds relaxing. Pepper loves long walks by the river. [shares a photo of a beagle on a riverside path]",
    );
    // Session 2 opens with speaker_b: an assistant-side half first; Ines's two lines joined.
    expect(s[1].dialogue.map((d) => [d.user, d.assistant])).toEqual([
      ["", "Tomas: Ines, I signed up for a half marathon in Porto in June."],
      [
        "Ines: Wow! I started volunteering at the animal shelter on Saturdays.\nInes: Pepper comes along and the kids there adore her.",
        "Tomas: Lovely. I still go to pottery and I am making mugs now.",
      ],
    ]);
  });

  it("takes per-conversation files; a sample twice is an error naming it", async () => {
    t = tempDb();
    const r = await importLocomo(t.db, { paths: [LOCOMO_CONV2], name: "one" });
    expect(r.stats.conversations).toBe(1);
    await expect(importLocomo(t.db, { paths: [LOCOMO_DEMO, LOCOMO_CONV2], name: "two" })).rejects.toThrow(
      'conv-demo-2.json: (root).sample_id: "conv-demo-2" appears twice',
    );
  });

  it("evidence naming no turn of its conversation is kept and reported, each place named", async () => {
    t = tempDb();
    const data = JSON.parse(fs.readFileSync(LOCOMO_DEMO, "utf8"));
    data[1].qa[0].evidence = ["D9:99", data[1].qa[0].evidence[0] ?? "D1:1"];
    data[0].qa[3].evidence = ["D1:2; D2:1"];
    const r = await importLocomo(t.db, { paths: [tmpFile("ev.json", data)], name: "ev" });
    const w = r.report.warnings.find((x) => x.code === "evidence-missing-turn");
    expect(w).toMatchObject({
      count: 2,
      examples: ['ev.json: [0].qa[3].evidence[0]: "D1:2; D2:1"', 'ev.json: [1].qa[0].evidence[0]: "D9:99"'],
    });
  });

  it("bounds: ids, speakers and dates over 200 characters, and files over the import's total, are refused naming them", async () => {
    t = tempDb();
    const data = JSON.parse(fs.readFileSync(LOCOMO_DEMO, "utf8"));
    // A speaker's name goes before each of their turns as methods read them: 1 MB of name would repeat per turn.
    const long = JSON.parse(JSON.stringify(data));
    const name = "N".repeat(1_000_000);
    long[1].conversation.speaker_a = name;
    for (const k of Object.keys(long[1].conversation))
      if (Array.isArray(long[1].conversation[k]))
        for (const turn of long[1].conversation[k]) if (turn.speaker === data[1].conversation.speaker_a) turn.speaker = name;
    await expect(importLocomo(t.db, { paths: [tmpFile("long.json", long)], name: "x" })).rejects.toThrow(
      "long.json: [1].conversation.speaker_a: at most 200 characters, got 1000000",
    );
    const id = JSON.parse(JSON.stringify(data));
    id[0].qa[1].evidence = ["D1:" + "9".repeat(300)];
    await expect(importLocomo(t.db, { paths: [tmpFile("id.json", id)], name: "x" })).rejects.toThrow(
      "id.json: [0].qa[1].evidence[0]: at most 200 characters, got 303",
    );
    // Parsed whole and held until written (~8x the file for tiny records): a total is refused before any parse.
    const f = tmpFile("a.json", data);
    expect(() => readLocomo([f, tmpFile("b.json", data)], fs.statSync(f).size * 1.5)).toThrow(
      /^a\.json, b\.json: \d+ MB in all, over the \d+ MB a LoCoMo import reads/,
    );
    expect(readLocomo([f], fs.statSync(f).size).threads).toHaveLength(2);
    // "session_01" beside "session_1" read session_1 twice (its turns doubled) and never session_01.
    const twice = JSON.parse(JSON.stringify(data));
    twice[0].conversation.session_01 = twice[0].conversation.session_1;
    twice[0].conversation.session_01_date_time = twice[0].conversation.session_1_date_time;
    await expect(importLocomo(t.db, { paths: [tmpFile("twice.json", twice)], name: "x" })).rejects.toThrow(
      "twice.json: [0].conversation.session_01: expected session_<N>, N from 1 without leading zeros",
    );
    expect(count("datasets")).toBe(0);
  });

  it("bad input names file, record and field, and writes nothing", async () => {
    t = tempDb();
    const data = JSON.parse(fs.readFileSync(LOCOMO_DEMO, "utf8"));
    data[1].qa[2].category = 7;
    await expect(importLocomo(t.db, { paths: [tmpFile("bad.json", data)], name: "x" })).rejects.toThrow(
      "bad.json: [1].qa[2].category: expected an integer 1-5, got 7",
    );
    data[1].qa[2].category = 2;
    data[0].conversation.session_2[1].speaker = "Someone";
    await expect(importLocomo(t.db, { paths: [tmpFile("bad.json", data)], name: "x" })).rejects.toThrow(
      'bad.json: [0].conversation.session_2[1].speaker: "Someone" is neither speaker_a ("Ines") nor speaker_b ("Tomas")',
    );
    await expect(importLocomo(t.db, { paths: [tmpFile("broken.json", "[{")], name: "x" })).rejects.toThrow(/^broken\.json: not valid JSON/);
    // A turn's extra field nested 100,000 deep: named before parsing (it broke the write with a RangeError).
    data[0].conversation.session_2[1].speaker = "Ines";
    const n = 100_000;
    const deep = JSON.stringify(data).replace('"dia_id"', `"img_url": ${"[".repeat(n)}${"]".repeat(n)}, "dia_id"`);
    await expect(importLocomo(t.db, { paths: [tmpFile("deep.json", deep)], name: "x" })).rejects.toThrow(
      /^deep\.json: line 1: field "\[0\]\.conversation\.session_1\[0\]….*": nested deeper than 64 levels/,
    );
    expect(count("datasets")).toBe(0);
    expect(count("cm_turns")).toBe(0);
  });
});

describe("a wrong type in any field", () => {
  type Edit = [string, (d: any) => void, string]; // eslint-disable-line @typescript-eslint/no-explicit-any
  const LOCOMO_EDITS: Edit[] = [
    ["sample_id", (d) => (d[1].sample_id = null), "[1].sample_id: expected a string, got null"],
    ["conversation", (d) => (d[0].conversation = []), "[0].conversation: expected an object, got a list"],
    ["speaker_b", (d) => (d[0].conversation.speaker_b = 3), "[0].conversation.speaker_b: expected a string, got a number"],
    ["a session", (d) => (d[0].conversation.session_2 = {}), "[0].conversation.session_2: expected a list, got an object"],
    [
      "a turn's text",
      (d) => (d[0].conversation.session_1[1].text = 5),
      "[0].conversation.session_1[1].text: expected a string, got a number",
    ],
    [
      "a dia_id",
      (d) => delete d[1].conversation.session_1[0].dia_id,
      "[1].conversation.session_1[0].dia_id: expected a string, got nothing (missing)",
    ],
    ["qa", (d) => (d[0].qa = {}), "[0].qa: expected a list, got an object"],
    ["a question", (d) => (d[0].qa[0].question = ["?"]), "[0].qa[0].question: expected a string, got a list"],
    ["evidence", (d) => (d[0].qa[0].evidence = "D1:1"), '[0].qa[0].evidence: expected a list, got the string "D1:1"'],
    ["an answer", (d) => (d[0].qa[0].answer = { a: 1 }), "[0].qa[0].answer: expected a string, got an object"],
  ];
  it.each(LOCOMO_EDITS)("LoCoMo: %s is named with its file and record, nothing written", async (_f, edit, message) => {
    t = tempDb();
    const data = JSON.parse(fs.readFileSync(LOCOMO_DEMO, "utf8"));
    edit(data);
    await expect(importLocomo(t.db, { paths: [tmpFile("w.json", data)], name: "x" })).rejects.toThrow(`w.json: ${message}`);
    expect(count("datasets") + count("cm_turns") + count("cm_qa")).toBe(0);
  });

  const LME_EDITS: Edit[] = [
    ["question_id", (d) => (d[1].question_id = {}), "[1].question_id: expected a string, got an object"],
    ["question_type", (d) => (d[0].question_type = 5), "[0].question_type: expected a string, got a number"],
    ["haystack_session_ids", (d) => (d[2].haystack_session_ids = "s"), '[2].haystack_session_ids: expected a list, got the string "s"'],
    ["a turn", (d) => (d[0].haystack_sessions[0][1] = "hi"), '[0].haystack_sessions[0][1]: expected an object, got the string "hi"'],
    [
      "a turn's content",
      (d) => (d[0].haystack_sessions[0][0].content = 5),
      "[0].haystack_sessions[0][0].content: expected a string, got a number",
    ],
    [
      "has_answer",
      (d) => (d[0].haystack_sessions[0][0].has_answer = "yes"),
      "[0].haystack_sessions[0][0].has_answer: expected true or false",
    ],
    ["answer", (d) => (d[3].answer = null), "[3].answer: expected a string, got null"],
    ["question_date", (d) => (d[4].question_date = []), "[4].question_date: expected a string, got a list"],
    ["answer_session_ids", (d) => (d[0].answer_session_ids = [1]), "[0].answer_session_ids[0]: expected a string, got a number"],
  ];
  it.each(LME_EDITS)("LongMemEval: %s is named with its file and record, nothing written", async (_f, edit, message) => {
    t = tempDb();
    const data = JSON.parse(fs.readFileSync(LONGMEMEVAL_DEMO, "utf8"));
    edit(data);
    await expect(importLongMemEval(t.db, { paths: [tmpFile("w.json", data)], name: "x" })).rejects.toThrow(`w.json: ${message}`);
    expect(count("datasets") + count("cm_sessions") + count("cm_qa")).toBe(0);
  });
});

describe("LongMemEval import", () => {
  it("stores each distinct haystack session once, timelines in haystack_dates order", async () => {
    t = tempDb();
    const r = await importLongMemEval(t.db, { paths: [LONGMEMEVAL_DEMO], name: "lme" });
    expect(r.stats).toEqual({ questions: 5, sessions: 7, sessionRefs: 14, turns: 16, qa: 5 });
    expect(datasetKind("longmemeval").stats(t.db, r.datasetId)).toEqual(r.stats);
    expect(r.report.warnings.map((w) => [w.code, w.count])).toEqual([["haystack-reordered", 1]]);
    const ds = datasetByName(t.db, "lme");
    const s = loadSessions(t.db, ds, "q-demo-ku");
    expect(s.map((x) => x.key)).toEqual(["sharegpt_f1_0", "answer_car_1", "ultrachat_f3_0", "answer_car2_1"]);
    expect(s[1].dialogue[0]).toMatchObject({ user: "I just bought a used Honda Civic, a 2017 model, and I want to plan its maintenance." });
    const has = t.db.$client.prepare("SELECT has_answer AS h FROM cm_turns ORDER BY session_id, position").all() as Array<{
      h: number | null;
    }>;
    expect(has.filter((x) => x.h === 1).length).toBe(4);
    const q = t.db.$client.prepare("SELECT question_type, evidence, question_date FROM cm_qa WHERE item_key = 'q-demo-ku'").get();
    expect(q).toEqual({
      question_type: "knowledge-update",
      evidence: '["answer_car_1","answer_car2_1"]',
      question_date: "2023/07/15 (Sat) 09:00",
    });
  });

  it("bad input names the record and field, and writes nothing", async () => {
    t = tempDb();
    const data = JSON.parse(fs.readFileSync(LONGMEMEVAL_DEMO, "utf8"));
    data[2].haystack_sessions[1][0].role = "system";
    await expect(importLongMemEval(t.db, { paths: [tmpFile("s.json", data)], name: "x" })).rejects.toThrow(
      's.json: [2].haystack_sessions[1][0].role: expected "user" or "assistant", got "system"',
    );
    data[2].haystack_sessions[1][0].role = "user";
    data[3].haystack_dates.pop();
    await expect(importLongMemEval(t.db, { paths: [tmpFile("s.json", data)], name: "x" })).rejects.toThrow(
      "s.json: [3].haystack_dates: has 1 dates for 2 haystack_session_ids",
    );
    data[3].haystack_dates.push("2023/05/20 (Sat) 02:21");
    // An extra field nested 100,000 deep in the third question (it broke the write with a RangeError).
    const n = 100_000;
    const deep = JSON.stringify(data.slice(0, 3)).replace(
      /"question_type"(?![\s\S]*"question_type")/,
      `"notes": ${"[".repeat(n)}${"]".repeat(n)}, "question_type"`,
    );
    await expect(importLongMemEval(t.db, { paths: [tmpFile("s.json", deep)], name: "x" })).rejects.toThrow(
      /^s\.json: \[2\]: field "notes\[0\]\[0\]\[0\]….*": nested deeper than 64 levels/,
    );
    expect(count("datasets")).toBe(0);
    expect(count("cm_sessions")).toBe(0);
  });

  it("a replace keeps the data set's id and leaves no old rows", async () => {
    t = tempDb();
    const a = await importLongMemEval(t.db, { paths: [LONGMEMEVAL_DEMO], name: "lme" });
    const b = await importLongMemEval(t.db, { paths: [LONGMEMEVAL_DEMO], name: "lme", replace: true });
    expect(b.datasetId).toBe(a.datasetId);
    expect(count("cm_sessions")).toBe(7);
    expect(count("cm_timeline")).toBe(14);
  });
});

describe("pal import / pal stats (child process)", () => {
  it("imports both kinds and prints their counts", () => {
    const d = fs.mkdtempSync(path.join(os.tmpdir(), "pal-cm-cli-"));
    dirs.push(d);
    const pal = (...args: string[]) =>
      spawnSync(process.execPath, [path.join(ROOT, "bin/pal.mjs"), ...args], {
        cwd: ROOT,
        env: { ...process.env, PAL_DB: path.join(d, "pal.db"), PAL_DEBUG: "" },
        encoding: "utf8",
        timeout: 60_000,
      });
    expect(pal("import", "locomo", LOCOMO_DEMO, "--name", "loc").status).toBe(0);
    expect(pal("import", "longmemeval", LONGMEMEVAL_DEMO, "--name", "lme").status).toBe(0);
    expect(JSON.parse(pal("stats", "--dataset", "loc", "--json").stdout)).toEqual({ conversations: 2, sessions: 4, turns: 12, qa: 10 });
    expect(JSON.parse(pal("stats", "--dataset", "lme", "--json").stdout)).toEqual({
      questions: 5,
      sessions: 7,
      sessionRefs: 14,
      turns: 16,
      qa: 5,
    });
    const bad = pal("import", "longmemeval", LOCOMO_DEMO, LONGMEMEVAL_DEMO, "--name", "two");
    expect(bad.status).not.toBe(0);
    expect(bad.stderr).toContain("a LongMemEval import takes one file");
  }, 120_000);
});
