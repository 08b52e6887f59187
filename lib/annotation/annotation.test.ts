import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { and, eq } from "drizzle-orm";
import { tempDb } from "@/test/db";
import { PALSET_EN, ROOT } from "@/test/fixtures";
import { assignments, labelHistory, labels, users } from "@/db/schema";
import { createUser } from "@/lib/users/users";
import { importPalset } from "@/lib/datasets/palset/import";
import {
  campaignAgreement,
  createCampaign,
  exportCampaign,
  humanVsJudge,
  importJudgeVerdicts,
  myQueue,
  presentAssignment,
  skipAssignment,
  submitLabels,
  figure2,
  adjudicate,
  itemView,
  itemsOverview,
  listCampaigns,
  annotatorProgress,
  myCampaigns,
} from "@/lib/annotation";
import type { Db } from "@/db/client";

const PAIRWISE = fs.readFileSync(path.join(ROOT, "fixtures/annotation/pairwise-demo.jsonl"), "utf8");
const HICUPID = fs.readFileSync(path.join(ROOT, "fixtures/annotation/hicupid-ab-demo.jsonl"), "utf8");

let t: ReturnType<typeof tempDb>;
let db: Db;
let admin: number;
let ann: number[];
beforeEach(async () => {
  t = tempDb();
  db = t.db;
  admin = (await createUser(db, { email: "r@x.io", role: "researcher", password: "password-123" })).id;
  ann = [];
  for (const e of ["a1@x.io", "a2@x.io", "a3@x.io"])
    ann.push((await createUser(db, { email: e, role: "annotator", password: "password-123" })).id);
});
afterEach(() => t.cleanup());

/** A pairwise-dialogue campaign "p" over the demo upload, created by the researcher. */
const pairwiseCampaign = (annotatorIds: number[], perItem: number) =>
  createCampaign(
    db,
    { name: "p", kind: "pairwise-dialogue", perItem, annotatorIds, source: { kind: "upload", fileName: "p.jsonl", text: PAIRWISE } },
    admin,
  );

const flip = (v: string) => (v === "Win" ? "Lose" : v === "Lose" ? "Win" : v);
let sub = 0;
/** Submits canonical values for an annotator's assignment of an item, pressing what the shown order needs. */
function label(user: number, externalId: string, canonical: Record<string, string>) {
  const a = db.$client
    .prepare(
      `select a.id, a.swapped from assignments a join campaign_items i on i.id = a.item_id where i.external_id = ? and a.annotator_id = ?`,
    )
    .get(externalId, user) as { id: number; swapped: number };
  const values = Object.fromEntries(Object.entries(canonical).map(([k, v]) => [k, a.swapped ? flip(v) : v]));
  return submitLabels(db, user, a.id, { submissionId: `sub-${String(++sub).padStart(6, "0")}`, values });
}

describe("campaign creation", () => {
  it("samples PAL-Set sessions, seeded, and balances k annotations over annotators, never twice to one", async () => {
    const ds = await importPalset(db, { paths: [PALSET_EN], name: "en", lang: "en" });
    const spec = { kind: "palset-session" as const, datasetId: ds.datasetId, users: 2, sessionsPerUser: 2, seed: 7 };
    const c = createCampaign(db, { name: "q", kind: "session-quality", perItem: 2, annotatorIds: ann, source: spec }, admin);
    const c2 = createCampaign(db, { name: "q2", kind: "session-quality", perItem: 2, annotatorIds: ann, source: spec }, admin);
    const ext = (id: number) =>
      db.$client.prepare("select external_id from campaign_items where campaign_id = ? order by position").all(id);
    expect(ext(c.id)).toEqual(ext(c2.id));
    expect(c.items).toBe(4);
    expect(c.assignments).toBe(8);
    const loads = db.$client
      .prepare("select annotator_id, count(*) n from assignments where campaign_id = ? group by annotator_id")
      .all(c.id) as Array<{ n: number }>;
    expect(Math.max(...loads.map((l) => l.n)) - Math.min(...loads.map((l) => l.n))).toBeLessThanOrEqual(1);
    const dup = db.$client
      .prepare("select item_id, annotator_id, count(*) n from assignments group by item_id, annotator_id having n > 1")
      .all();
    expect(dup).toEqual([]);
    const item = presentAssignment(db, ann[0], myQueue(db, ann[0], c.id).entries[0].assignmentId);
    expect(Object.keys(item.content)).toEqual(expect.arrayContaining(["profile", "situation", "logs", "dialogue", "requirements"]));
    expect(item.dimensions.map((d) => d.key)).toEqual(["logs", "dialogue"]);
    // A split rating has no "Tie" to become: such campaigns wait for adjudication unless told otherwise.
    expect(db.$client.prepare("select tie_rule from campaigns where id = ?").get(c.id)).toEqual({ tie_rule: "adjudicate" });
    expect(() =>
      createCampaign(db, { name: "q3", kind: "session-quality", perItem: 2, annotatorIds: ann, tieRule: "tie", source: spec }, admin),
    ).toThrow(/needs a Tie category/);
  });

  it("says what a draw made when the data set has fewer users or sessions than asked (and why), on the campaign", async () => {
    const ds = await importPalset(db, { paths: [PALSET_EN], name: "en-small", lang: "en" });
    const spec = { kind: "palset-session" as const, datasetId: ds.datasetId, users: 50, sessionsPerUser: 100, seed: 3 };
    const c = createCampaign(db, { name: "short", kind: "session-quality", perItem: 1, annotatorIds: ann, source: spec }, admin);
    expect(c.note).toMatch(
      new RegExp(
        `^Asked for 50 users × 100 sessions \\(5000 items\\); made ${c.items}: the data set has \\d+ users? with sessions to rate, not 50; .*fewer than 100 sessions`,
      ),
    );
    const stored = db.$client.prepare("select config from campaigns where id = ?").get(c.id) as { config: string };
    expect(JSON.parse(stored.config).sampleNote).toBe(c.note);
    // A draw that made what it was asked says nothing.
    const full = createCampaign(
      db,
      { name: "full", kind: "session-quality", perItem: 1, annotatorIds: ann, source: { ...spec, users: 1, sessionsPerUser: 1 } },
      admin,
    );
    expect(full.note).toBeUndefined();
  });

  it("refuses a bad upload naming the file, line and field, and stores nothing", () => {
    const bad = PAIRWISE.split("\n").slice(0, 2).join("\n") + '\n{"id":"x","user_info":"u","a":{"system":"h2memory","output":"hi"}}\n';
    expect(() =>
      createCampaign(
        db,
        { name: "p", kind: "pairwise-dialogue", perItem: 2, annotatorIds: ann, source: { kind: "upload", fileName: "p.jsonl", text: bad } },
        admin,
      ),
    ).toThrow('p.jsonl:3: field "b" must be an object {"system", "output"}');
    expect(db.$client.prepare("select count(*) n from campaigns").get()).toEqual({ n: 0 });
    expect(() => pairwiseCampaign(ann, 4)).toThrow(/at least 4 annotators/);
  });
});

describe("the blinded queue", () => {
  it("shows outputs in the recorded order, never a system name; stores labels in canonical order; one per submission", () => {
    const c = pairwiseCampaign(ann, 3);
    const q = myQueue(db, ann[0], c.id);
    expect(q.entries).toHaveLength(6);
    let swappedSeen = 0;
    for (const e of q.entries) {
      const item = presentAssignment(db, ann[0], e.assignmentId);
      const json = JSON.stringify(item);
      expect(json).not.toMatch(/h2memory|vanilla/);
      expect(json).not.toMatch(/topic-\d/); // no source ids either
      const row = db.select().from(assignments).where(eq(assignments.id, e.assignmentId)).get()!;
      if (row.swapped) swappedSeen++;
      const r = submitLabels(db, ann[0], e.assignmentId, {
        submissionId: `same-${e.assignmentId}-xx`,
        values: { requirement: "Win", preference: "Tie" },
      });
      expect(r.duplicate).toBe(false);
      expect(
        submitLabels(db, ann[0], e.assignmentId, {
          submissionId: `same-${e.assignmentId}-xx`,
          values: { requirement: "Win", preference: "Tie" },
        }).duplicate,
      ).toBe(true);
      const stored = db
        .select()
        .from(labels)
        .where(and(eq(labels.assignmentId, e.assignmentId), eq(labels.dimension, "requirement")))
        .get()!;
      expect(stored.value).toBe(row.swapped ? "Lose" : "Win");
      expect(stored.shownValue).toBe("Win");
    }
    expect(swappedSeen).toBeGreaterThan(0);
    expect(swappedSeen).toBeLessThan(6);
    expect(db.$client.prepare("select count(*) n from labels").get()).toEqual({ n: 12 });
    // An edit keeps the earlier version.
    const first = q.entries[0].assignmentId;
    submitLabels(db, ann[0], first, { submissionId: "edit-000001", values: { requirement: "Tie", preference: "Tie" } });
    expect(db.select().from(labelHistory).all()).toHaveLength(1);
  });

  it("never lets an annotator read, draft, submit or skip another's assignment", () => {
    const c = pairwiseCampaign([ann[0], ann[1]], 1);
    const other = myQueue(db, ann[1], c.id).entries[0].assignmentId;
    expect(() => presentAssignment(db, ann[0], other)).toThrow(/no assignment/);
    expect(() =>
      submitLabels(db, ann[0], other, { submissionId: "evil-000001", values: { requirement: "Win", preference: "Win" } }),
    ).toThrow(/no assignment/);
    expect(() => skipAssignment(db, ann[0], other, "x")).toThrow(/no assignment/);
    expect(() => myQueue(db, ann[2], c.id)).toThrow(/no campaign/);
    expect(db.$client.prepare("select count(*) n from labels").get()).toEqual({ n: 0 });
  });

  it("users with labels cannot be deleted (they are disabled instead)", () => {
    const c = pairwiseCampaign([ann[0]], 1);
    label(ann[0], "topic-1", { requirement: "Win", preference: "Win" });
    expect(() => db.delete(users).where(eq(users.id, ann[0])).run()).toThrow(/FOREIGN KEY/);
    expect(c.items).toBe(6);
  });
});

describe("progress counts", () => {
  it("counts done and skipped assignments per campaign, per annotator and in the annotator's own list", () => {
    const c = pairwiseCampaign([ann[0], ann[1]], 2);
    label(ann[0], "topic-1", { requirement: "Win", preference: "Win" });
    label(ann[0], "topic-2", { requirement: "Tie", preference: "Lose" });
    label(ann[1], "topic-1", { requirement: "Lose", preference: "Tie" });
    const open = myQueue(db, ann[0], c.id).entries.find((e) => e.status === "pending")!;
    skipAssignment(db, ann[0], open.assignmentId, "unreadable");
    expect(listCampaigns(db)).toEqual([expect.objectContaining({ id: c.id, items: 6, assignments: 12, done: 3, skipped: 1 })]);
    expect(annotatorProgress(db, c.id)).toEqual([
      expect.objectContaining({ email: "a1@x.io", total: 6, done: 2, skipped: 1 }),
      expect.objectContaining({ email: "a2@x.io", total: 6, done: 1, skipped: 0 }),
    ]);
    expect(myCampaigns(db, ann[0])).toEqual([expect.objectContaining({ id: c.id, total: 6, done: 2, skipped: 1 })]);
  });
});

describe("agreement and the human vs judge comparison (worked by hand)", () => {
  // requirement: (human1, human2) → vote; judge
  const H: Array<[string, string, string, string]> = [
    ["topic-1", "Win", "Win", "Win"],
    ["topic-2", "Win", "Lose", "Win"],
    ["topic-3", "Tie", "Tie", "Tie"],
    ["topic-4", "Lose", "Lose", "Win"],
    ["topic-5", "Lose", "Tie", "Lose"],
    ["topic-6", "Win", "Win", "Win"],
  ];
  function setup() {
    const c = pairwiseCampaign([ann[0], ann[1]], 2);
    for (const [id, h1, h2] of H) {
      label(ann[0], id, { requirement: h1, preference: "Win" });
      label(ann[1], id, { requirement: h2, preference: "Win" });
    }
    const file = H.map(([id, , , j]) =>
      JSON.stringify({ item: id, dimension: "requirement", verdict: j, judgments: [{ order: "AB", scoreA: 7, scoreB: 5 }] }),
    ).join("\n");
    const run = importJudgeVerdicts(db, c.id, { name: "judge-x", fileName: "v.jsonl", text: file }, admin);
    return { c, run };
  }

  it("Table 11 counts, the tie-excluded kappas (both / either) and the plain kappa", () => {
    const { c, run } = setup();
    const r = humanVsJudge(db, c.id, run.runId).dimensions.find((d) => d.dimension === "requirement")!;
    expect(r.table11).toEqual({ judge: { Win: 4, Tie: 1, Lose: 1 }, human: { Win: 2, Tie: 3, Lose: 1 } });
    expect(r.result.droppedTies).toBe(1);
    expect(r.result.n).toBe(5);
    expect(r.result.cohenKappa.value).toBeCloseTo(0.0625, 10);
    expect(r.result.fleissKappa.value).toBeCloseTo(-0.04 / 0.56, 10);
    expect(r.result.plain.cohenKappa.value).toBeCloseTo(0.25, 10);
    expect(r.disagreements.map((d) => d.externalId)).toEqual(["topic-2", "topic-4", "topic-5"]);
    // Listed by their topics, the ids kept for links (issue 26, item 5).
    expect(r.disagreements.map((d) => d.title)).toEqual(["Choose a gym", "Cook dinner for friends", "Prepare for a job interview"]);
    expect(itemsOverview(db, c.id, { onlyDisagreements: true }).rows.map((i) => i.externalId)).toEqual(["topic-2", "topic-4", "topic-5"]);
    expect(itemsOverview(db, c.id).rows).toHaveLength(6);
    expect(itemsOverview(db, c.id).total).toBe(6);
    expect(itemsOverview(db, c.id, { page: 2 }).rows).toHaveLength(0); // pages of 100
    const strict = humanVsJudge(db, c.id, run.runId, { variant: "either" }).dimensions[0];
    expect(strict.result.n).toBe(3);
    // The judge says Win on all three kept items: its kappas are undefined (constant ratings), not 0 and −0.2.
    expect(strict.result.cohenKappa).toEqual({
      value: null,
      reason: expect.stringMatching(/^undefined \(constant ratings\): the first rater/),
    });
    expect(strict.result.fleissKappa).toEqual({ value: null, reason: strict.result.cohenKappa.reason });
    // An adjudication settles item 2 as Win: now 4 kept items agree on 1, 2, 6.
    const item2 = db.$client.prepare("select id from campaign_items where external_id = 'topic-2'").get() as { id: number };
    adjudicate(db, c.id, item2.id, "requirement", "Win", "left clarifies the need", admin);
    const adj = humanVsJudge(db, c.id, run.runId, { humans: "adjudication" }).dimensions[0];
    expect(adj.table11.human).toEqual({ Win: 3, Tie: 2, Lose: 1 });
    // The side-by-side view of that item: its judge verdict (not another item's) and the adjudication.
    const view = itemView(db, c.id, item2.id);
    expect(view.judges).toEqual([
      { id: run.runId, name: "judge-x", model: null, labels: { requirement: expect.objectContaining({ value: "Win" }) } },
    ]);
    expect(view.adjudicated).toEqual([
      expect.objectContaining({ dimension: "requirement", value: "Win", note: "left clarifies the need" }),
    ]);
    expect(() => adjudicate(db, c.id, item2.id, "nope", "Win", null, admin)).toThrow(/not a dimension/);
    expect(() => adjudicate(db, c.id, 999999, "requirement", "Win", null, admin)).toThrow(/no item 999999/);
  });

  it("inter-annotator agreement per dimension, the same numbers in the export", () => {
    const { c } = setup();
    const a = campaignAgreement(db, c.id, { dimension: "requirement", bootstrap: 200 });
    const d = a.dimensions[0];
    // Pairs (W,W) (W,L) (T,T) (L,L) (L,T) (W,W): po = 4/6; marginals W 3+2, T 1+2, L 2+2 over 12.
    expect(d.report.percentAgreement).toBeCloseTo(4 / 6, 10);
    const pe = (3 / 6) * (2 / 6) + (1 / 6) * (2 / 6) + (2 / 6) * (2 / 6);
    expect(d.report.cohen[0].kappa).toBeCloseTo((4 / 6 - pe) / (1 - pe), 10);
    expect(d.majority.items.map((m) => m.label)).toEqual(["Win", "Tie", "Tie", "Lose", "Tie", "Win"]);
    expect(d.confusion[0].counts.flat().reduce((s, x) => s + x, 0)).toBe(6);
    // The items with the most disagreement read by their topics (issue 26, item 5), the ids kept for links.
    expect(a.mostDisagreement.length).toBeGreaterThan(0);
    for (const m of a.mostDisagreement) expect(m.title).not.toBe(m.externalId);
    const exported = JSON.parse(exportCampaign(db, c.id, "json"));
    expect(exported.labels).toHaveLength(24);
    expect(exported.agreement.dimensions[0].report.cohen[0].kappa).toBe(campaignAgreement(db, c.id).dimensions[0].report.cohen[0].kappa);
    const agreementCsv = exportCampaign(db, c.id, "csv", "agreement").split("\n");
    expect(agreementCsv[0]).toBe("dimension,statistic,raters,n,value,ciLow,ciHigh,reading,note");
    expect(agreementCsv.find((l) => l.startsWith("requirement,cohen.kappa,"))).toContain(String(d.report.cohen[0].kappa));
    const labelsCsv = exportCampaign(db, c.id, "csv").split("\n");
    expect(labelsCsv[0]).toBe(
      "item,itemId,annotator,dimension,value,shownValue,swapped,comment,msSpent,submittedAt,seconds,gold,attention,tooFast,excluded,excludedReason,version",
    );
    // submittedAt in ISO 8601, not epoch milliseconds (issue 44.8).
    expect(labelsCsv[1]).toMatch(/,\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z,/);
  });

  it("HiCUPID Figure 2: reference-win / tie / model-win and S for the humans and each judge", () => {
    const c = createCampaign(
      db,
      { name: "h", kind: "hicupid-ab", perItem: 1, annotatorIds: [ann[0]], source: { kind: "upload", fileName: "h.jsonl", text: HICUPID } },
      admin,
    );
    const vals = ["Win", "Tie", "Lose", "Lose"];
    vals.forEach((v, i) => label(ann[0], `qa-${i + 1}`, { personalization: v, "logical-validity": "Tie" }));
    importJudgeVerdicts(
      db,
      c.id,
      {
        name: "gpt",
        fileName: "j.jsonl",
        text: vals
          .map((v, i) =>
            JSON.stringify({
              item: `qa-${i + 1}`,
              dimension: "personalization",
              winner: v === "Win" ? "demo-model" : v === "Lose" ? "reference" : "tie",
            }),
          )
          .join("\n"),
      },
      admin,
    );
    const f = figure2(db, c.id).find((x) => x.dimension === "personalization")!;
    expect(f.rows[0]).toMatchObject({ source: "Humans", n: 4, referenceWin: 0.5, tie: 0.25, modelWin: 0.25, score: 37.5 });
    expect(f.rows[1]).toMatchObject({ source: "gpt", n: 4, score: 37.5 });
  });

  it("refuses a judge file line naming the field; nothing stored", () => {
    const { c } = setup();
    expect(() =>
      importJudgeVerdicts(
        db,
        c.id,
        {
          name: "j",
          fileName: "bad.jsonl",
          text: '{"item":"topic-1","dimension":"requirement","verdict":"Win"}\n{"item":"topic-2","dimension":"requirement","verdict":"Maybe"}',
        },
        admin,
      ),
    ).toThrow('bad.jsonl:2: field "verdict": expected one of Win, Tie, Lose, got "Maybe"');
    expect(db.$client.prepare("select count(*) n from judge_runs").get()).toEqual({ n: 1 });
  });
});

describe("an uploaded campaign's annotators", () => {
  it("are exactly the ticked ones: the form's fields reach createCampaign unchanged", async () => {
    const { newCampaignFromForm } = await import("./form");
    const form = new FormData();
    form.set("source", "upload");
    form.set("name", "upload pilot");
    form.set("kind", "pairwise-dialogue");
    form.set("perItem", "1");
    form.append("annotators", String(ann[1]));
    form.set("file", new File([PAIRWISE], "p.jsonl"));
    // The form as the campaign route reads it: streamed from a real multipart request.
    const { readMultipartForm } = await import("@/lib/http/multipart");
    const received = await readMultipartForm(new Request("http://localhost/api/campaigns", { method: "POST", body: form }), {
      fileField: "file",
      maxFileBytes: 10 * 1024 * 1024,
      what: "a campaign file",
    });
    const c = createCampaign(db, newCampaignFromForm(received), admin);
    const who = db.select({ a: assignments.annotatorId }).from(assignments).where(eq(assignments.campaignId, c.id)).all();
    expect(new Set(who.map((w) => w.a))).toEqual(new Set([ann[1]]));
  });
});
