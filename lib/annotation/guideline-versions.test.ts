/**
 * Guideline versions (issue 43.5) on a real SQLite file: an edit makes a new version kept with its author
 * and time, refused (changing nothing) when it names a compared system unless overridden; a label records
 * the version its page showed, an old page's label the old version; the export and the agreement report
 * split by it.
 */
import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { tempDb } from "@/test/db";
import { ROOT } from "@/test/fixtures";
import { createUser } from "@/lib/users/users";
import { createCampaign, exportCampaign, getCampaign, myQueue, submitLabels } from "@/lib/annotation";
import type { Db } from "@/db/client";
import { agreementIdle, computeAgreement } from "./agreement-cache";
import { editGuidelines, guidelineVersionsOf } from "./guideline-versions";
import { editGuidelinesForm } from "./forms";

const PAIRWISE = fs.readFileSync(path.join(ROOT, "fixtures/annotation/pairwise-demo.jsonl"), "utf8");

let t: ReturnType<typeof tempDb>;
let db: Db;
let pi: number;
let pi2: number;
let ann: number[];
beforeEach(async () => {
  t = tempDb();
  db = t.db;
  pi = (await createUser(db, { email: "pi@x.io", role: "researcher", password: "password-123" })).id;
  pi2 = (await createUser(db, { email: "pi2@x.io", role: "admin", password: "password-123" })).id;
  ann = [];
  for (const e of ["a1@x.io", "a2@x.io"]) ann.push((await createUser(db, { email: e, role: "annotator", password: "password-123" })).id);
});
afterEach(async () => {
  await agreementIdle(db);
  t.cleanup();
});

function campaign() {
  return createCampaign(
    db,
    {
      name: "p",
      kind: "pairwise-dialogue",
      perItem: 2,
      annotatorIds: ann,
      guidelines: "Pick the dialogue that helps the user more.",
      source: { kind: "upload", fileName: "p.jsonl", text: PAIRWISE },
    },
    pi,
  );
}
const assignment = (user: number, externalId: string) =>
  (
    db.$client
      .prepare("select a.id from assignments a join campaign_items i on i.id = a.item_id where i.external_id = ? and a.annotator_id = ?")
      .get(externalId, user) as { id: number }
  ).id;
let sub = 0;
const submit = (user: number, externalId: string, guidelineVersion?: unknown, requirement = "Tie") =>
  submitLabels(db, user, assignment(user, externalId), {
    submissionId: `gv-${String(++sub).padStart(6, "0")}`,
    values: { requirement, preference: "Tie" },
    guidelineVersion,
  });
const versionsOfLabels = () =>
  db.$client
    .prepare(
      "select i.external_id item, u.email who, l.guideline_version v from labels l join assignments a on a.id = l.assignment_id join campaign_items i on i.id = a.item_id join users u on u.id = a.annotator_id where l.dimension = 'requirement' order by i.position, u.email",
    )
    .all();

describe("guideline versions", () => {
  it("an edit is a new version with its author and time; naming a system is refused unless overridden, and nothing changes", () => {
    const c = campaign();
    expect(guidelineVersionsOf(db, c.id).map((v) => [v.version, v.author, v.guidelines])).toEqual([
      [1, "pi@x.io", "Pick the dialogue that helps the user more."],
    ]);
    expect(() => editGuidelines(db, c.id, "Prefer h2memory's follow-up questions.", pi2)).toThrow(
      /guidelines: the guidelines name “h2memory”.*showSystemNames/,
    );
    expect(() => editGuidelines(db, c.id, "  Pick the dialogue that helps the user more. ", pi2)).toThrow(/unchanged/);
    expect(() => editGuidelines(db, c.id, "   ", pi2)).toThrow(/empty/);
    expect(getCampaign(db, c.id)).toMatchObject({ guidelinesVersion: 1, blindingOverride: null });
    expect(guidelineVersionsOf(db, c.id)).toHaveLength(1);

    expect(editGuidelines(db, c.id, "Pick the more helpful dialogue; a follow-up question counts as help.", pi2)).toEqual({ version: 2 });
    const f = new FormData();
    f.set("campaignId", String(c.id));
    f.set("guidelines", "Prefer VANILLA-LOG when in doubt.");
    f.set("showSystemNames", "on");
    expect(editGuidelinesForm(db, f, pi)).toMatchObject({ version: 3 });
    const after = getCampaign(db, c.id);
    expect(after.guidelinesVersion).toBe(3);
    expect(after.guidelines).toBe("Prefer VANILLA-LOG when in doubt.");
    expect(after.blindingOverride?.named).toEqual([{ system: "vanilla-log", where: "guidelines" }]);
    expect(guidelineVersionsOf(db, c.id).map((v) => [v.version, v.author])).toEqual([
      [1, "pi@x.io"],
      [2, "pi2@x.io"],
      [3, "pi@x.io"],
    ]);
    // Annotators read the current version, and the page knows its number.
    expect(myQueue(db, ann[0], c.id).campaign).toMatchObject({ guidelines: "Prefer VANILLA-LOG when in doubt.", guidelinesVersion: 3 });
  });

  it("each label records the version its page showed; the export and the agreement report split by it", async () => {
    const c = campaign();
    submit(ann[0], "topic-1", 1);
    submit(ann[1], "topic-1", 1);
    editGuidelines(db, c.id, "Version two: a tie only when both dialogues are equally helpful.", pi);
    // A page opened before the edit still sends version 1; a fresh page sends 2; a client sending none gets the current.
    submit(ann[0], "topic-2", 1);
    submit(ann[1], "topic-2", 2, "Win");
    submit(ann[0], "topic-3");
    submit(ann[1], "topic-3", 2);
    // A version the campaign never had is refused, and nothing is stored.
    expect(() => submit(ann[0], "topic-4", 3)).toThrow(/guidelineVersion: expected a version of this campaign's guidelines, 1 to 2/);
    expect(() => submit(ann[0], "topic-4", "2")).toThrow(/guidelineVersion/);
    expect(versionsOfLabels()).toEqual([
      { item: "topic-1", who: "a1@x.io", v: 1 },
      { item: "topic-1", who: "a2@x.io", v: 1 },
      { item: "topic-2", who: "a1@x.io", v: 1 },
      { item: "topic-2", who: "a2@x.io", v: 2 },
      { item: "topic-3", who: "a1@x.io", v: 2 },
      { item: "topic-3", who: "a2@x.io", v: 2 },
    ]);
    // Re-submitting from a new page records the version of that submission.
    submit(ann[0], "topic-2", 2);
    const json = JSON.parse(exportCampaign(db, c.id, "json"));
    const byLabel = json.labels
      .filter((l: { dimension: string }) => l.dimension === "requirement")
      .map((l: { item: string; annotator: string; version: number }) => [l.item, l.annotator, l.version]);
    expect(byLabel).toEqual([
      ["topic-1", "a1@x.io", 1],
      ["topic-1", "a2@x.io", 1],
      ["topic-2", "a1@x.io", 2],
      ["topic-2", "a2@x.io", 2],
      ["topic-3", "a1@x.io", 2],
      ["topic-3", "a2@x.io", 2],
    ]);
    expect(json.guidelineVersions.map((v: { version: number }) => v.version)).toEqual([1, 2]);
    expect(exportCampaign(db, c.id, "csv").split("\n")[0]).toMatch(/,version$/);

    const report = (await computeAgreement(db, c.id))!;
    const req = (v: number) => report.byVersion!.find((x) => x.version === v)!.dimensions.find((d) => d.key === "requirement")!;
    // Version 1: topic-1 (Tie, Tie) → agreement 1. Version 2: topic-2 (Tie, Win) and topic-3 (Tie, Tie) → 0.5.
    expect(req(1)).toMatchObject({ labels: 2, pairedItems: 1, percentAgreement: 1 });
    expect(req(2)).toMatchObject({ labels: 4, pairedItems: 2, percentAgreement: 0.5 });
  });
});
