/**
 * The cleaned release of LongMemEval (2025-09; README 80152a1: longmemeval_s_cleaned.json,
 * longmemeval_m_cleaned.json, longmemeval_oracle.json) has the fields of the original files (the README's
 * "Dataset Format" is unchanged through 9e0b455); what changed is which filler sessions the haystacks hold.
 * Its quirks, in a small file of our own in that shape (fixtures/longmemeval/cleaned-demo.json): a haystack
 * listing one filler session twice at two dates (issue #54: 13 such in the cleaned S file), a number as the
 * answer, an abstention id, a single-session-assistant question whose evidence is on the assistant's side.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { tempDb } from "@/test/db";
import { LONGMEMEVAL_CLEANED_DEMO } from "@/test/fixtures";
import { datasetKind } from "../kinds";
import { importLongMemEval } from "./import";
import { loadTimeline, threadInfo } from "../convmem/thread";
import { loadConvItem } from "@/lib/tasks/convqa/items";

let t: ReturnType<typeof tempDb> | undefined;
const dirs: string[] = [];
afterEach(() => {
  t?.cleanup();
  t = undefined;
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

/** The fixture under the release's file name (the data set is named after the file when no name is given). */
function asReleased(name: string, data?: unknown): string {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), "pal-lme-cleaned-"));
  dirs.push(d);
  const f = path.join(d, name);
  if (data === undefined) fs.copyFileSync(LONGMEMEVAL_CLEANED_DEMO, f);
  else fs.writeFileSync(f, JSON.stringify(data));
  return f;
}
const count = (table: string) => (t!.db.$client.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;

describe("LongMemEval cleaned files", () => {
  it("imports longmemeval_s_cleaned.json: a session listed twice is kept twice on the timeline, stored once, and reported", async () => {
    t = tempDb();
    const r = await importLongMemEval(t.db, { paths: [asReleased("longmemeval_s_cleaned.json")] });
    expect(r.name).toBe("longmemeval_s_cleaned");
    expect(r.stats).toEqual({ questions: 4, sessions: 6, sessionRefs: 12, turns: 16, qa: 4 });
    expect(datasetKind("longmemeval").stats(t.db, r.datasetId)).toEqual(r.stats);
    expect(r.report.warnings).toEqual([
      expect.objectContaining({ code: "haystack-session-repeated", count: 1, examples: ["[0] c-ssu: sharegpt_c1_0"] }),
    ]);
    // The haystack as the file has it (the public code feeds and indexes both copies), in date order.
    const th = threadInfo(t.db, r.datasetId, "c-ssu");
    const tl = loadTimeline(t.db, th.id);
    expect(tl.map((s) => [s.label, s.date])).toEqual([
      ["sharegpt_c1_0", "2023/05/01 (Mon) 08:30"],
      ["answer_c_bike_1", "2023/05/12 (Fri) 19:05"],
      ["sharegpt_c1_0", "2023/05/20 (Sat) 11:45"],
      ["ultrachat_c2_0", "2023/06/02 (Fri) 07:10"],
    ]);
    expect(tl[0].turns).toEqual(tl[2].turns);
    expect(count("cm_sessions")).toBe(6);
    const rows = t.db.$client
      .prepare("SELECT count(DISTINCT session_id) AS d, count(*) AS n FROM cm_timeline WHERE thread_id = ?")
      .get(th.id) as { d: number; n: number };
    expect(rows).toEqual({ d: 3, n: 4 });
    // A number as the answer is the reference as text; the abstention id and the evidence ids as given.
    const ssu = loadConvItem(t.db, r.datasetId, "c-ssu");
    expect(ssu).toMatchObject({ answer: "3", questionType: "single-session-user", evidence: ["answer_c_bike_1"] });
    expect(ssu.questionDate).toBe("2023/06/10 (Sat) 20:00");
    expect(loadConvItem(t.db, r.datasetId, "c-ssu_abs").questionType).toBe("single-session-user");
    // has_answer as given: on the assistant's turn for the single-session-assistant question.
    const ssa = loadTimeline(t.db, threadInfo(t.db, r.datasetId, "c-ssa").id)[1];
    expect(ssa.turns.map((x) => [x.speaker, x.hasAnswer])).toEqual([
      ["user", 0],
      ["assistant", 1],
      ["user", 0],
      ["assistant", null],
    ]);
  });

  it("the M and oracle names too; an answer session missing from its haystack is reported, not refused", async () => {
    t = tempDb();
    const data = JSON.parse(fs.readFileSync(LONGMEMEVAL_CLEANED_DEMO, "utf8"));
    expect((await importLongMemEval(t.db, { paths: [asReleased("longmemeval_m_cleaned.json", data)] })).name).toBe("longmemeval_m_cleaned");
    data[2].answer_session_ids.push("answer_c_con_3");
    const o = await importLongMemEval(t.db, { paths: [asReleased("longmemeval_oracle.json", data)] });
    expect(o.name).toBe("longmemeval_oracle");
    expect(o.report.warnings.map((w) => [w.code, w.count, w.examples])).toEqual([
      ["haystack-session-repeated", 1, ["[0] c-ssu: sharegpt_c1_0"]],
      ["answer-session-missing", 1, ["[2] c-ms: answer_c_con_3"]],
    ]);
  });

  it("one file only, naming the cleaned files", async () => {
    t = tempDb();
    const f = asReleased("longmemeval_s_cleaned.json");
    await expect(importLongMemEval(t.db, { paths: [f, f] })).rejects.toThrow(/takes one file \(longmemeval_s_cleaned\.json/);
  });
});
