/**
 * The adjudication queue (issue 43.4) on a real SQLite file: ordered by the background report's
 * disagreement, a page reads only its items, a decision needs a reason and becomes the item's final label
 * in the export, the agreement report's majority and Table 11 by adjudication.
 */
import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { tempDb } from "@/test/db";
import { ROOT } from "@/test/fixtures";
import { createUser } from "@/lib/users/users";
import { createCampaign, exportCampaign, importJudgeVerdicts, submitLabels } from "@/lib/annotation";
import type { Db } from "@/db/client";
import { agreementIdle, agreementSnapshot, computeAgreement } from "./agreement-cache";
import { adjudicationQueue, QUEUE_PAGE } from "./adjudication";
import { adjudicateForm } from "./forms";
import { joinCampaign, setParticipantExcluded } from "./participants";
import { assignments } from "@/db/schema";

const PAIRWISE = fs.readFileSync(path.join(ROOT, "fixtures/annotation/pairwise-demo.jsonl"), "utf8");

let t: ReturnType<typeof tempDb>;
let db: Db;
let pi: number;
let ann: number[];
beforeEach(async () => {
  t = tempDb();
  db = t.db;
  pi = (await createUser(db, { email: "pi@x.io", role: "researcher", password: "password-123" })).id;
  ann = [];
  for (const e of ["a1@x.io", "a2@x.io"]) ann.push((await createUser(db, { email: e, role: "annotator", password: "password-123" })).id);
});
afterEach(async () => {
  // A page's read asks the background refresher for a fresh report: let it finish before the file goes.
  await agreementIdle(db);
  t.cleanup();
});

const flip = (v: string) => (v === "Win" ? "Lose" : v === "Lose" ? "Win" : v);
let sub = 0;
function label(user: number, externalId: string, requirement: string, preference = "Tie", ms = 4000) {
  const a = db.$client
    .prepare(
      "select a.id, a.swapped from assignments a join campaign_items i on i.id = a.item_id where i.external_id = ? and a.annotator_id = ?",
    )
    .get(externalId, user) as { id: number; swapped: number };
  const shown = (v: string) => (a.swapped ? flip(v) : v);
  submitLabels(db, user, a.id, {
    submissionId: `adj-${String(++sub).padStart(6, "0")}`,
    values: { requirement: shown(requirement), preference: shown(preference) },
    ms,
  });
}
const itemId = (externalId: string) =>
  (db.$client.prepare("select id from campaign_items where external_id = ?").get(externalId) as { id: number }).id;
function form(fields: Record<string, string>) {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) f.set(k, v);
  return f;
}

describe("the adjudication queue", () => {
  it("orders items by disagreement from the cached report, with each label's annotator, seconds and version", async () => {
    const c = createCampaign(
      db,
      {
        name: "p",
        kind: "pairwise-dialogue",
        perItem: 2,
        annotatorIds: ann,
        source: { kind: "upload", fileName: "p.jsonl", text: PAIRWISE },
      },
      pi,
    );
    // topic-1 splits on both dimensions, topic-2 on one, topic-3 agrees.
    label(ann[0], "topic-1", "Win", "Win", 1500);
    label(ann[1], "topic-1", "Lose", "Lose", 9000);
    label(ann[0], "topic-2", "Win");
    label(ann[1], "topic-2", "Tie");
    label(ann[0], "topic-3", "Win");
    label(ann[1], "topic-3", "Win");
    // No report yet: the queue says so and computes nothing in the request.
    const before = adjudicationQueue(db, c.id);
    expect(before).toMatchObject({ pending: true, items: [], total: 0 });
    await computeAgreement(db, c.id);
    const q = adjudicationQueue(db, c.id);
    expect(q.pending).toBe(false);
    expect(q.items.map((i) => [i.externalId, i.score])).toEqual([
      ["topic-1", 1],
      ["topic-2", 0.5],
    ]);
    const first = q.items[0];
    expect(first.title).toBe("Plan a weekend trip");
    expect(first.outputs.map((o) => o.system)).toEqual(["h2memory", "vanilla-log"]);
    expect(
      first.labels.requirement.map((l) => [l.annotator, l.value, l.seconds, l.guidelineVersion, l.tooFast, l.excluded, l.gold]),
    ).toEqual([
      ["a1@x.io", "Win", 1.5, 1, false, false, null],
      ["a2@x.io", "Lose", 9, 1, false, false, null],
    ]);

    // A label after the report: the queue keeps serving the stored order (marked not current), never recomputing.
    const stored = db.$client.prepare("select computed_at from agreement_reports where campaign_id = ?").get(c.id);
    label(ann[0], "topic-4", "Win");
    const stale = adjudicationQueue(db, c.id);
    expect(stale.current).toBe(false);
    expect(stale.items.map((i) => i.externalId)).toEqual(["topic-1", "topic-2"]);
    expect(db.$client.prepare("select computed_at from agreement_reports where campaign_id = ?").get(c.id)).toEqual(stored);
    // A page past the end is clamped to the last.
    expect(adjudicationQueue(db, c.id, 99).page).toBe(1);
    expect(QUEUE_PAGE).toBeGreaterThan(0);
  });

  it("a decision needs a reason (other: a note); it becomes the final label in the export, the agreement report and Table 11", async () => {
    const c = createCampaign(
      db,
      {
        name: "p",
        kind: "pairwise-dialogue",
        perItem: 2,
        tieRule: "tie",
        annotatorIds: ann,
        source: { kind: "upload", fileName: "p.jsonl", text: PAIRWISE },
      },
      pi,
    );
    label(ann[0], "topic-1", "Win");
    label(ann[1], "topic-1", "Lose");
    label(ann[0], "topic-2", "Win");
    label(ann[1], "topic-2", "Win");
    importJudgeVerdicts(
      db,
      c.id,
      {
        name: "j",
        fileName: "v.jsonl",
        text: ["topic-1", "topic-2"].map((item) => JSON.stringify({ item, dimension: "requirement", verdict: "Win" })).join("\n"),
      },
      pi,
    );
    const base = { campaignId: String(c.id), itemId: String(itemId("topic-1")), dimension: "requirement", value: "Win" };
    expect(() => adjudicateForm(db, form({ ...base, note: "" }), pi)).toThrow(/reason: expected one of ambiguous-item/);
    expect(() => adjudicateForm(db, form({ ...base, reason: "other", note: "  " }), pi)).toThrow(/note: say why/);
    expect(() => adjudicateForm(db, form({ ...base, reason: "guideline-gap", value: "Maybe" }), pi)).toThrow(/value: expected one of/);
    expect(db.$client.prepare("select count(*) n from adjudications").get()).toEqual({ n: 0 });

    // Before: the split item is a tie by the campaign's rule.
    const votes = (await computeAgreement(db, c.id))!;
    const req = () => votes.dimensions.find((d) => d.dimension.key === "requirement")!;
    expect(req().majority.items.find((i) => i.externalId === "topic-1")).toMatchObject({ label: "Tie", rule: "tie" });

    adjudicateForm(db, form({ ...base, reason: "guideline-gap", note: "the guidelines say nothing about follow-up questions" }), pi);
    const json = JSON.parse(exportCampaign(db, c.id, "json"));
    expect(
      json.itemOutcomes.find((o: { item: string; dimension: string }) => o.item === "topic-1" && o.dimension === "requirement"),
    ).toMatchObject({
      outcome: "adjudicated",
      value: "Win",
    });
    expect(json.adjudications).toEqual([
      expect.objectContaining({
        item: "topic-1",
        dimension: "requirement",
        value: "Win",
        reason: "guideline-gap",
        note: "the guidelines say nothing about follow-up questions",
        adjudicator: "pi@x.io",
      }),
    ]);
    // The report is stale now (the trigger); recomputed, the decision is the item's label whatever the tie rule.
    expect(agreementSnapshot(db, c.id).current).toBe(false);
    const after = (await computeAgreement(db, c.id))!;
    const reqAfter = after.dimensions.find((d) => d.dimension.key === "requirement")!;
    expect(reqAfter.majority.items.find((i) => i.externalId === "topic-1")).toMatchObject({ label: "Win", rule: "adjudicated" });
    // Table 11 by adjudication counts the decision (Win) where the vote counts a Tie.
    const t11 = (choice: "vote/both" | "adjudication/both") =>
      after.judgeViews.table11[choice]![0].dimensions.find((d) => d.dimension === "requirement")!.table11.human;
    expect(t11("vote/both")).toEqual({ Win: 1, Tie: 1, Lose: 0 });
    expect(t11("adjudication/both")).toEqual({ Win: 2, Tie: 0, Lose: 0 });
    // The queue shows the decision with its reason.
    const q = adjudicationQueue(db, c.id);
    expect(q.items[0].decisions.requirement).toMatchObject({ value: "Win", reason: "guideline-gap", by: "pi@x.io" });
  });

  it("crowd labels carry the participant's code and flags: too fast, excluded, their gold answers", async () => {
    const first = PAIRWISE.split("\n")[0];
    const gold = JSON.stringify({ ...JSON.parse(first), id: "gold-0", gold: { requirement: "Win" } });
    const c = createCampaign(
      db,
      {
        name: "crowd",
        kind: "pairwise-dialogue",
        perItem: 3,
        annotatorIds: [],
        link: true,
        crowd: { completionCode: "DONE1", screenoutCode: "OUT1", goldRate: 0, minSeconds: 3 },
        gold: { fileName: "gold.jsonl", text: gold },
        source: { kind: "upload", fileName: "p.jsonl", text: PAIRWISE },
      },
      pi,
    );
    const token = c.link!.split("/").pop()!;
    const people = ["PID1", "PID2", "PID3"].map((pid, n) => joinCampaign(db, { token, pid, browserKey: `browser-key-0000000${n}` }));
    // Each gets the gold item and topic-1, shown unswapped (set up directly: the serving order is not what is tested here).
    const give = (userId: number, externalId: string, position: number) =>
      db
        .insert(assignments)
        .values({ campaignId: c.id, itemId: itemId(externalId), annotatorId: userId, position })
        .returning()
        .get().id;
    const answer = (userId: number, externalId: string, position: number, requirement: string, ms: number) =>
      submitLabels(db, userId, give(userId, externalId, position), {
        submissionId: `crowd-${userId}-${externalId}`,
        values: { requirement, preference: "Tie" },
        ms,
      });
    const [p1, p2, p3] = people;
    answer(p1.userId, "gold-0", 0, "Win", 5000);
    answer(p1.userId, "topic-1", 1, "Win", 1200); // faster than the 3 s minimum
    answer(p2.userId, "gold-0", 0, "Lose", 5000); // the gold answer missed
    answer(p2.userId, "topic-1", 1, "Lose", 8000);
    answer(p3.userId, "topic-1", 0, "Lose", 8000);
    setParticipantExcluded(db, c.id, p3.participant.id, true, "clicked through");
    await computeAgreement(db, c.id);
    const q = adjudicationQueue(db, c.id);
    // The gold item is never in the queue (not part of agreement); topic-1 is, split between P1 and P2.
    expect(q.items.map((i) => i.externalId)).toEqual(["topic-1"]);
    const rows = Object.fromEntries(q.items[0].labels.requirement.map((l) => [l.annotator, l]));
    expect(rows[p1.participant.code]).toMatchObject({
      value: "Win",
      seconds: 1.2,
      tooFast: true,
      excluded: false,
      gold: { correct: 1, checked: 1 },
    });
    expect(rows[p2.participant.code]).toMatchObject({
      value: "Lose",
      seconds: 8,
      tooFast: false,
      excluded: false,
      gold: { correct: 0, checked: 1 },
    });
    expect(rows[p3.participant.code]).toMatchObject({ value: "Lose", tooFast: false, excluded: true, gold: null });
    // Pseudonymous: no Prolific id anywhere in what the page gets.
    expect(JSON.stringify(q)).not.toMatch(/PID\d/);
  });
});
