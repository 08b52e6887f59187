/**
 * The agreement report is served from its cache: a view never computes it, asks for a fresh one when
 * labels changed (the triggers bump the campaign's version), and the export carries the new fields.
 */
import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { tempDb } from "@/test/db";
import { ROOT } from "@/test/fixtures";
import { createUser } from "@/lib/users/users";
import { adjudicate, createCampaign, exportCampaign, importJudgeVerdicts, skipAssignment, submitLabels } from "@/lib/annotation";
import { deleteJudgeRun } from "./llm-judge";
import { humanVsJudge } from "./verdict-import";
import { tieMarginCalibration, withBestMargin } from "./calibration";
import { choiceKey } from "./judge-views";
import { listKey, listWindow, showLists } from "./judge-item-lists";
import { agreementIdle, agreementKey, agreementSnapshot, computeAgreement } from "./agreement-cache";
import { agreementDashboard, dashboardFilters, noComparisonText } from "./agreement-dashboard";
import type { Db } from "@/db/client";

const PAIRWISE = fs.readFileSync(path.join(ROOT, "fixtures/annotation/pairwise-demo.jsonl"), "utf8");

let t: ReturnType<typeof tempDb>;
let db: Db;
let admin: number;
let ann: number[];
beforeEach(async () => {
  t = tempDb();
  db = t.db;
  admin = (await createUser(db, { email: "r@x.io", role: "researcher", password: "password-123" })).id;
  ann = [];
  for (const e of ["a1@x.io", "a2@x.io"]) ann.push((await createUser(db, { email: e, role: "annotator", password: "password-123" })).id);
});
afterEach(() => t.cleanup());

function campaign() {
  return createCampaign(
    db,
    {
      name: "p",
      kind: "pairwise-dialogue",
      perItem: 2,
      annotatorIds: ann,
      source: { kind: "upload", fileName: "p.jsonl", text: PAIRWISE },
    },
    admin,
  );
}
let sub = 0;
function assignmentOf(user: number, externalId: string) {
  return db.$client
    .prepare(
      `select a.id, a.swapped from assignments a join campaign_items i on i.id = a.item_id where i.external_id = ? and a.annotator_id = ?`,
    )
    .get(externalId, user) as { id: number; swapped: number };
}
const flip = (v: string) => (v === "Win" ? "Lose" : v === "Lose" ? "Win" : v);
function label(user: number, externalId: string, requirement: string, ms = 1000) {
  const a = assignmentOf(user, externalId);
  const shown = a.swapped ? flip(requirement) : requirement;
  submitLabels(db, user, a.id, {
    submissionId: `sub-${String(++sub).padStart(6, "0")}`,
    values: { requirement: shown, preference: "Tie" },
    ms,
  });
}

describe("the agreement cache", () => {
  it("a view never computes: the first asks for the report, later ones get it, new labels mark it stale and refresh it", async () => {
    const c = campaign();
    label(ann[0], "topic-1", "Win");
    label(ann[1], "topic-1", "Win");
    const first = agreementSnapshot(db, c.id);
    expect(first).toMatchObject({ report: null, computedAt: null, current: false, refreshing: true });
    await agreementIdle(db);
    const ready = agreementSnapshot(db, c.id);
    expect(ready).toMatchObject({ current: true, refreshing: false });
    expect(ready.report!.dimensions[0].report.items).toBe(1);

    // A new label bumps the version: the old report is served, marked stale, while the new one is computed.
    const before = agreementKey(db, c.id);
    label(ann[0], "topic-2", "Lose");
    expect(agreementKey(db, c.id)).not.toBe(before);
    const stale = agreementSnapshot(db, c.id);
    expect(stale).toMatchObject({ current: false, refreshing: true });
    expect(stale.report!.dimensions[0].report.items).toBe(1);
    await agreementIdle(db);
    expect(agreementSnapshot(db, c.id).report!.dimensions[0].report.items).toBe(2);
  });

  it("skips, adjudications and judge labels change the version too (the triggers)", async () => {
    const c = campaign();
    const key = () => agreementKey(db, c.id);
    let k = key();
    skipAssignment(db, ann[0], assignmentOf(ann[0], "topic-3").id, "unclear");
    expect(key()).not.toBe(k);
    k = key();
    label(ann[0], "topic-1", "Win");
    label(ann[1], "topic-1", "Lose");
    expect(key()).not.toBe(k);
    k = key();
    const item = db.$client.prepare("select id from campaign_items where external_id = 'topic-1'").get() as { id: number };
    adjudicate(db, c.id, item.id, "requirement", "Win", "clear", admin);
    expect(key()).not.toBe(k);
    k = key();
    importJudgeVerdicts(
      db,
      c.id,
      { name: "j", fileName: "v.jsonl", text: JSON.stringify({ item: "topic-1", dimension: "requirement", verdict: "Tie" }) },
      admin,
    );
    expect(key()).not.toBe(k);
    // A report computed now is current until the next write.
    await computeAgreement(db, c.id);
    expect(agreementSnapshot(db, c.id).current).toBe(true);
  });

  it("deleting a judge run marks the report stale (its labels' trigger cannot find the run any more)", async () => {
    const c = campaign();
    label(ann[0], "topic-1", "Win");
    label(ann[1], "topic-1", "Win");
    const run = importJudgeVerdicts(
      db,
      c.id,
      { name: "j", fileName: "v.jsonl", text: JSON.stringify({ item: "topic-1", dimension: "requirement", verdict: "Tie" }) },
      admin,
    );
    await computeAgreement(db, c.id);
    expect(agreementSnapshot(db, c.id).report!.judges.map((j) => j.run.name)).toContain("j");
    const k = agreementKey(db, c.id);
    deleteJudgeRun(db, c.id, run.runId);
    expect(agreementKey(db, c.id)).not.toBe(k);
    expect(agreementSnapshot(db, c.id).current).toBe(false);
    await agreementIdle(db);
    expect(agreementSnapshot(db, c.id).report!.judges).toEqual([]);
  });

  it("the export (served or computed) has the annotators, the Fleiss interval and the warnings", async () => {
    const c = campaign();
    for (const [id, a, b] of [
      ["topic-1", "Win", "Win"],
      ["topic-2", "Lose", "Lose"],
      ["topic-3", "Win", "Lose"],
      ["topic-4", "Tie", "Tie"],
    ]) {
      label(ann[0], id, a, 2000);
      label(ann[1], id, b, 4000);
    }
    const json = JSON.parse(exportCampaign(db, c.id, "json"));
    const a = json.agreement;
    expect(a.current).toBe(true);
    expect(a.annotators.map((x: { annotator: string }) => x.annotator)).toEqual(["a1@x.io", "a2@x.io"]);
    // a1 vs a2's labels on 4 items: (W,W) (L,L) (W,L) (T,T): p_o = 3/4, p_e = (2·1 + 1·2 + 1·1)/16 = 5/16 → κ = 7/11.
    expect(a.annotators[0]).toMatchObject({ labels: 4, skipped: 0, medianSeconds: 2 });
    expect(a.annotators[0].agreement.requirement.kappa).toBeCloseTo(7 / 11, 12);
    expect(a.annotators[1].medianSeconds).toBe(4);
    const report = a.dimensions.find((d: { dimension: { key: string } }) => d.dimension.key === "requirement").report;
    // 4 items: below the minimum for an interval (issue 44.4), so the export has the estimate alone.
    expect(report.fleissKappa).not.toBeNull();
    expect(report.fleissCi).toBeNull();
    expect(report.interpretation.fleissKappa).toBeNull();
    // 4 items (< 30), and every preference label is Tie (both annotators constant there).
    expect(a.warnings.map((w: { dimension: string; kind: string }) => `${w.dimension}:${w.kind}`)).toEqual([
      "requirement:small-n",
      "preference:small-n",
      "preference:constant-rater",
      "preference:constant-rater",
    ]);

    // The dashboard reads the same figures from the cache once it is computed.
    expect(agreementDashboard(db, dashboardFilters({})).campaigns[0].dimensions).toEqual([]);
    await agreementIdle(db);
    const dash = agreementDashboard(db, dashboardFilters({ kind: "pairwise-dialogue" }));
    expect(dash.campaigns[0].dimensions[0].fleiss.value).toBeCloseTo(report.fleissKappa, 12);
    expect(dash.forest.map((f) => f.label)).toEqual(["p · " + dash.campaigns[0].dimensions[0].title]);
    // The forest plot marks the row: too few items, no interval.
    expect(dash.forest[0]).toMatchObject({ tooFew: true, lower: null, upper: null, n: 4 });
    expect(agreementDashboard(db, dashboardFilters({ kind: "hicupid-ab" })).campaigns).toEqual([]);
    expect(agreementDashboard(db, dashboardFilters({ to: "2000-01-01" })).campaigns).toEqual([]);
    expect(dashboardFilters({ kind: "bogus", from: "yesterday" })).toEqual({ kind: null, from: null, to: null });
  });
});

describe("the campaign page's judge tables (issue 30.2)", () => {
  it("are computed with the report for every choice of humans and variant, equal to the direct comparison, disagreements as item ids", async () => {
    const c = campaign();
    for (const [i, v] of ["Win", "Lose", "Tie", "Win", "Win"].entries()) {
      label(ann[0], `topic-${i + 1}`, v);
      label(ann[1], `topic-${i + 1}`, i === 3 ? "Lose" : v);
    }
    const verdicts = ["Lose", "Lose", "Tie", "Win", "Tie"].map((verdict, i) =>
      JSON.stringify({ item: `topic-${i + 1}`, dimension: "requirement", verdict }),
    );
    const { runId } = importJudgeVerdicts(db, c.id, { name: "j", fileName: "v.jsonl", text: verdicts.join("\n") }, admin);
    const report = (await computeAgreement(db, c.id))!;
    const ids = new Map(
      (
        db.$client.prepare("select id, external_id as e from campaign_items where campaign_id = ?").all(c.id) as Array<{
          id: number;
          e: string;
        }>
      ).map((r) => [r.e, r.id]),
    );
    for (const humans of ["vote", "adjudication"] as const) {
      for (const variant of ["both", "either"] as const) {
        const direct = humanVsJudge(db, c.id, runId, { humans, variant });
        const [stored] = report.judgeViews.table11[choiceKey(humans, variant)]!;
        expect(stored.run).toEqual(direct.run);
        stored.dimensions.forEach((d, k) => {
          const want = direct.dimensions[k];
          expect(d.table11).toEqual(want.table11);
          expect(d.result.fleissKappa).toEqual(want.result.fleissKappa);
          expect(d.result.plain).toEqual(want.result.plain);
          expect(d.disagreements).toEqual(want.disagreements.map((x) => x.itemId));
        });
        // The calibration's curves, the best margin picked when read.
        const cal = withBestMargin(report.judgeViews.calibration[choiceKey(humans, variant)]![0], "fleiss-plain");
        expect(cal).toEqual(tieMarginCalibration(db, c.id, runId, { humans, variant, criterion: "fleiss-plain" }));
      }
    }
    // topic-1 (Win vs judge Lose), topic-4 (Win/Lose split: a tie, judge Win) and topic-5 (Win vs judge Tie) disagree.
    const req = report.judgeViews.table11["vote/both"]![0].dimensions.find((d) => d.dimension === "requirement")!;
    expect(req.disagreements).toEqual([ids.get("topic-1"), ids.get("topic-4"), ids.get("topic-5")]);
    // The page resolves a list's first items to titles, or the opened list a page at a time.
    const shown = showLists(db, c.id, new Map([[listKey(runId, "requirement"), req.disagreements]]));
    expect(shown.get(listKey(runId, "requirement"))).toMatchObject({
      total: 3,
      open: false,
      items: [{ externalId: "topic-1", title: "Plan a weekend trip" }, { externalId: "topic-4" }, { externalId: "topic-5" }],
    });
  });

  it("a list shows its first five, or the opened one 100 a page (the page clamped to the list)", () => {
    const ids = Array.from({ length: 250 }, (_, i) => i + 1);
    expect(listWindow(ids, false).ids).toEqual([1, 2, 3, 4, 5]);
    expect(listWindow(ids, true, 2)).toMatchObject({ page: 2, pageSize: 100 });
    expect(listWindow(ids, true, 2).ids[0]).toBe(101);
    expect(listWindow(ids, true, 99)).toMatchObject({ page: 3 });
    expect(listWindow(ids, true, 99).ids).toHaveLength(50);
    expect(listWindow([], true, 1).ids).toEqual([]);
  });
});

describe("the dashboard's judge runs (issue 34.7)", () => {
  it("a paused LLM run without verdicts is named with its state, not read as no judge run", async () => {
    const c = campaign();
    expect(noComparisonText(agreementDashboard(db, dashboardFilters({})).campaigns[0].judgeRuns)).toBe("no judge run");
    db.$client
      .prepare(
        "insert into judge_runs (campaign_id, name, origin, created_by, created_at, paused_reason) values (?, 'gpt judge', 'llm', ?, ?, ?)",
      )
      .run(c.id, admin, Date.now(), "spend cap of $0.50 reached");
    const [card] = agreementDashboard(db, dashboardFilters({})).campaigns;
    expect(card.judgeRuns).toMatchObject([{ name: "gpt judge", state: "paused", hasVerdicts: false }]);
    expect(noComparisonText(card.judgeRuns)).toBe("gpt judge: paused by its spend guard, no verdicts yet");
    await agreementIdle(db);
  });
});
