import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { tempDb } from "@/test/db";
import { ROOT } from "@/test/fixtures";
import { createUser } from "@/lib/users/users";
import { createCampaign, importJudgeVerdicts, submitLabels } from "@/lib/annotation";
import { tieMarginCalibration } from "./calibration";
import type { Db } from "@/db/client";
import { experiments, jobs } from "@/db/schema";
import { applyTieMarginForm } from "./forms";

const PAIRWISE = fs.readFileSync(path.join(ROOT, "fixtures/annotation/pairwise-demo.jsonl"), "utf8");
const flip = (v: string) => (v === "Win" ? "Lose" : v === "Lose" ? "Win" : v);

let t: ReturnType<typeof tempDb>;
let db: Db;
let me: number;
beforeEach(async () => {
  t = tempDb();
  db = t.db;
  me = (await createUser(db, { email: "r@x.io", role: "researcher", password: "password-123" })).id;
});
afterEach(() => t.cleanup());

/** One annotator labels the requirement dimension; the judge's scores give differences +2, +0.5, −1, −0.25. */
function setUp(judgmentsOf: (a: number, b: number) => unknown[]) {
  const c = createCampaign(
    db,
    {
      name: "p",
      kind: "pairwise-dialogue",
      perItem: 1,
      annotatorIds: [me],
      source: { kind: "upload", fileName: "p.jsonl", text: PAIRWISE },
    },
    me,
  );
  const human: Record<string, string> = { "topic-1": "Win", "topic-2": "Tie", "topic-3": "Lose", "topic-4": "Tie" };
  const means: Record<string, [number, number]> = { "topic-1": [8, 6], "topic-2": [7, 6.5], "topic-3": [5, 6], "topic-4": [6, 6.25] };
  let n = 0;
  for (const [ext, v] of Object.entries(human)) {
    const a = db.$client
      .prepare("select a.id, a.swapped from assignments a join campaign_items i on i.id = a.item_id where i.external_id = ?")
      .get(ext) as { id: number; swapped: number };
    const shown = a.swapped ? flip(v) : v;
    submitLabels(db, me, a.id, { submissionId: `sub-${String(++n).padStart(6, "0")}`, values: { requirement: shown, preference: shown } });
  }
  const lines = Object.entries(means).map(([ext, [a, b]]) =>
    JSON.stringify({ item: ext, dimension: "requirement", verdict: a > b ? "Win" : "Lose", judgments: judgmentsOf(a, b) }),
  );
  const run = importJudgeVerdicts(db, c.id, { name: "imported", fileName: "v.jsonl", text: lines.join("\n") }, me);
  return { campaignId: c.id, runId: run.runId };
}

describe("tie-margin calibration of a campaign's judge run", () => {
  it("re-derives the verdicts from the stored scores, in either stored order, and marks the best margin", () => {
    // Four calls whose side means are (a, b): two AB with scores for A/B, two BA given in the shown order only.
    const { campaignId, runId } = setUp((a, b) => [
      { order: "AB", scoreA: a, scoreB: b },
      { order: "AB", scoreA: a, scoreB: b },
      { order: "BA", scoreFirst: b, scoreSecond: a },
      { order: "BA", scoreFirst: b, scoreSecond: a },
    ]);
    const cal = tieMarginCalibration(db, campaignId, runId);
    expect(cal.reason).toBeNull();
    const req = cal.dimensions.find((d) => d.dimension === "requirement")!;
    expect(req.curve).toHaveLength(13);
    expect(req.curve[0].judge).toEqual({ Win: 2, Tie: 0, Lose: 2 });
    expect(req.curve[0].plain.cohen.value).toBeCloseTo(1 / 3, 10);
    expect(req.curve[1].plain.cohen.value).toBeCloseTo(7 / 11, 10);
    expect(req.curve[2].plain.cohen.value).toBeCloseTo(1, 10);
    // Preference has no judge verdicts: it contributes nothing, and 0.5 is the best margin.
    expect(cal.dimensions.find((d) => d.dimension === "preference")!.curve[0].n).toBe(0);
    expect(cal.best).toBe(0.5);
  });

  it("says why when the verdicts carry no scores", () => {
    const { campaignId, runId } = setUp(() => []);
    const cal = tieMarginCalibration(db, campaignId, runId);
    expect(cal.best).toBeNull();
    expect(cal.reason).toMatch(/no scores/);
  });
});

describe("deleting a judge run", () => {
  it("removes the run and its verdicts and keeps its model calls in the ledger, detached", async () => {
    const { deleteJudgeRun } = await import("./llm-judge");
    const { campaignId, runId } = setUp(() => []);
    db.$client
      .prepare(
        "insert into llm_calls (purpose, role, config, endpoint, model, status, judge_run_id) values ('campaign.judge.dialogue.requirement', 'judge', 'judge', 'http://x', 'm', 'failed', ?)",
      )
      .run(runId);
    expect(() => deleteJudgeRun(db, campaignId, runId + 100)).toThrow(/no judge run/);
    deleteJudgeRun(db, campaignId, runId);
    const one = (sql: string) => (db.$client.prepare(sql).get() as { n: number }).n;
    expect(one(`select count(*) n from judge_runs where id = ${runId}`)).toBe(0);
    expect(one(`select count(*) n from judge_labels where run_id = ${runId}`)).toBe(0);
    expect(one("select count(*) n from llm_calls where judge_run_id is null and purpose like 'campaign.judge.%'")).toBe(1);
  });
});

describe("the Apply margin form (issue 23, item 6)", () => {
  const form = (f: Record<string, string>) => {
    const d = new FormData();
    for (const [k, v] of Object.entries(f)) d.set(k, v);
    return d;
  };
  /** An experiment row, with one pairwise dialogue job (phase 1) when `pairwise`. */
  function experiment(pairwise: boolean): number {
    const ds = db.$client
      .prepare("insert into datasets (name, kind, language) values ('d' || random(), 'palset', 'en') returning id")
      .get() as { id: number };
    const e = db
      .insert(experiments)
      .values({ name: "exp", datasetId: ds.id, datasetHash: "h", config: {}, configHash: "c", status: "done" })
      .returning()
      .get();
    db.insert(jobs)
      .values({ experimentId: e.id, method: "vanilla", task: "dialogue", itemKey: "k", status: "done", phase: pairwise ? 1 : 0 })
      .run();
    return e.id;
  }
  const margin = (id: number) =>
    db.$client.prepare("select pairwise_tie_margin m, pairwise_tie_margin_source s from experiments where id = ?").get(id) as {
      m: number | null;
      s: string | null;
    };

  it("refuses a margin that is not a number, a source over the limit, an unknown or non-pairwise experiment, changing nothing", () => {
    const id = experiment(true);
    const flat = experiment(false);
    const status = (f: Record<string, string>) => {
      try {
        applyTieMarginForm(db, form(f));
        return "ok";
      } catch (e) {
        return `${(e as { status: number }).status} ${(e as Error).message}`;
      }
    };
    expect(status({ campaignId: "1", experimentId: String(id), margin: "abc" })).toMatch(/^400 margin: expected a number from 0 to 10/);
    expect(status({ campaignId: "1", experimentId: String(id), margin: "1e400" })).toMatch(/^400 margin/);
    expect(status({ campaignId: "1", experimentId: String(id), margin: "11" })).toMatch(
      /^400 margin: expected a number from 0 to 10, got 11/,
    );
    expect(status({ campaignId: "1", experimentId: String(id), margin: "1", source: "x".repeat(900_000) })).toMatch(
      /^400 source: at most 300 characters/,
    );
    expect(status({ campaignId: "1", experimentId: "999999", margin: "1" })).toMatch(/^404 experiment 999999 does not exist/);
    expect(status({ campaignId: "1", experimentId: "abc", margin: "1" })).toMatch(/^400 experimentId/);
    expect(status({ campaignId: "1", experimentId: String(flat), margin: "1" })).toMatch(/^400 .*no pairwise dialogue results/);
    expect(margin(id)).toEqual({ m: null, s: null });
    expect(margin(flat)).toEqual({ m: null, s: null });
  });

  it("applies a margin with its source and resets it with an empty margin", () => {
    const id = experiment(true);
    const r = applyTieMarginForm(db, form({ campaignId: "3", experimentId: String(id), margin: "0.5", source: "campaign “c”" }));
    expect(r).toMatchObject({ campaignId: 3, experimentId: id });
    expect(margin(id)).toEqual({ m: 0.5, s: "campaign “c”" });
    applyTieMarginForm(db, form({ campaignId: "3", experimentId: String(id), margin: "" }));
    expect(margin(id)).toEqual({ m: null, s: null });
  });
});

describe("imported verdicts are bounded (issue 23, item 10)", () => {
  it("a verdict with 200,000 judgments, or a huge analysis, is refused naming the line and the limit; nothing is stored", () => {
    const { campaignId } = setUp(() => []);
    const runs = () => (db.$client.prepare("select count(*) n from judge_runs").get() as { n: number }).n;
    const before = runs();
    const many = Array.from({ length: 200_000 }, () => ({ order: "AB", scoreA: 1, scoreB: 2 }));
    const line = (extra: object) => JSON.stringify({ item: "topic-1", dimension: "requirement", verdict: "Win", ...extra });
    expect(() => importJudgeVerdicts(db, campaignId, { name: "j", fileName: "v.jsonl", text: line({ judgments: many }) }, me)).toThrow(
      /^v\.jsonl:1: field "judgments": at most 50 per verdict \(got 200000\)$/,
    );
    expect(() =>
      importJudgeVerdicts(
        db,
        campaignId,
        { name: "j", fileName: "v.jsonl", text: `${line({})}\n${line({ dimension: "preference", analysis: "a".repeat(150_000) })}` },
        me,
      ),
    ).toThrow(/^v\.jsonl:2: field "analysis": at most 100000 characters$/);
    expect(runs()).toBe(before);
  });
});
