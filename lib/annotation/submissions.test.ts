/**
 * Submissions and drafts under hostile or late requests: every accepted submission id is remembered
 * (a late retry of an old one never undoes a newer label), drafts are bounded and refused on a closed
 * campaign, and one request adds at most an hour of time.
 */
import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { tempDb } from "@/test/db";
import { ROOT } from "@/test/fixtures";
import { assignmentSubmissions, assignments, campaigns, labels } from "@/db/schema";
import { createUser } from "@/lib/users/users";
import { createCampaign, MAX_DRAFT_BYTES, MAX_MS_PER_REQUEST, presentAssignment, saveDraft, submitLabels } from "@/lib/annotation";
import type { Db } from "@/db/client";

const PAIRWISE = fs.readFileSync(path.join(ROOT, "fixtures/annotation/pairwise-demo.jsonl"), "utf8");

let t: ReturnType<typeof tempDb>;
let db: Db;
let annotator: number;
let assignmentId: number;
let campaignId: number;
beforeEach(async () => {
  t = tempDb();
  db = t.db;
  const owner = (await createUser(db, { email: "r@x.io", role: "researcher", password: "password-123" })).id;
  annotator = (await createUser(db, { email: "a@x.io", role: "annotator", password: "password-123" })).id;
  campaignId = createCampaign(
    db,
    {
      name: "p",
      kind: "pairwise-dialogue",
      perItem: 1,
      annotatorIds: [annotator],
      source: { kind: "upload", fileName: "p.jsonl", text: PAIRWISE },
    },
    owner,
  ).id;
  assignmentId = db.select().from(assignments).where(eq(assignments.annotatorId, annotator)).all()[0].id;
});
afterEach(() => t.cleanup());

const stored = () =>
  Object.fromEntries(
    db
      .select()
      .from(labels)
      .where(eq(labels.assignmentId, assignmentId))
      .all()
      .map((l) => [l.dimension, l.shownValue]),
  );
const msSpent = () => db.select().from(assignments).where(eq(assignments.id, assignmentId)).get()!.msSpent;

describe("submission ids", () => {
  it("a late retry of an older submission is a duplicate and does not undo the newer label", () => {
    const first = { submissionId: "first-submission", values: { requirement: "Win", preference: "Win" } };
    const second = { submissionId: "second-submission", values: { requirement: "Lose", preference: "Tie" } };
    expect(submitLabels(db, annotator, assignmentId, first)).toEqual({ duplicate: false });
    expect(submitLabels(db, annotator, assignmentId, second)).toEqual({ duplicate: false });
    // The first request's retry arrives after the second was stored.
    expect(submitLabels(db, annotator, assignmentId, first)).toEqual({ duplicate: true });
    expect(stored()).toEqual({ requirement: "Lose", preference: "Tie" });
    expect(
      db
        .select({ id: assignmentSubmissions.submissionId })
        .from(assignmentSubmissions)
        .where(eq(assignmentSubmissions.assignmentId, assignmentId))
        .all()
        .map((r) => r.id)
        .sort(),
    ).toEqual(["first-submission", "second-submission"]);
    // A new id still edits.
    submitLabels(db, annotator, assignmentId, { submissionId: "third-submission", values: { requirement: "Tie", preference: "Tie" } });
    expect(stored()).toEqual({ requirement: "Tie", preference: "Tie" });
  });
});

describe("drafts and time", () => {
  it("keeps a normal draft and shows it back", () => {
    saveDraft(db, annotator, assignmentId, { values: { requirement: "Win" }, comments: { requirement: "good" } }, 1000);
    const p = presentAssignment(db, annotator, assignmentId);
    expect(p.values.requirement).toBe("Win");
    expect(p.comments.requirement).toBe("good");
  });

  it("refuses a draft larger than the bound or with fields that are not dimensions, storing nothing", () => {
    const many = Object.fromEntries(Array.from({ length: 2000 }, (_, i) => [`k${i}`, "x".repeat(4999)]));
    expect(() => saveDraft(db, annotator, assignmentId, { values: {}, comments: many })).toThrow(/not a dimension of this campaign/);
    // The byte bound is the last guard (a campaign's dimensions and the per-comment limit keep real drafts far below it).
    expect(MAX_DRAFT_BYTES).toBe(256 * 1024);
    expect(() => saveDraft(db, annotator, assignmentId, { values: {}, comments: { requirement: "x".repeat(9_500_000) } })).toThrow(
      /up to 5000 characters/,
    );
    expect(() => saveDraft(db, annotator, assignmentId, { values: {}, junk: "x".repeat(1000) })).toThrow(/draft\.junk/);
    expect(db.select().from(assignments).where(eq(assignments.id, assignmentId)).get()!.draft).toBeNull();
  });

  it("refuses a draft on a closed campaign", () => {
    db.update(campaigns).set({ status: "closed" }).where(eq(campaigns.id, campaignId)).run();
    expect(() => saveDraft(db, annotator, assignmentId, { values: { requirement: "Win" } }, 1000)).toThrow(/closed/);
    expect(db.select().from(assignments).where(eq(assignments.id, assignmentId)).get()!.draft).toBeNull();
    expect(msSpent()).toBe(0);
  });

  it("adds at most an hour per request (clamped, the request still succeeds)", () => {
    expect(MAX_MS_PER_REQUEST).toBe(3_600_000);
    saveDraft(db, annotator, assignmentId, { values: {} }, 6 * 3_600_000);
    expect(msSpent()).toBe(3_600_000);
    submitLabels(db, annotator, assignmentId, {
      submissionId: "late-submission",
      values: { requirement: "Win", preference: "Win" },
      ms: 6 * 3_600_000,
    });
    expect(msSpent()).toBe(2 * 3_600_000);
    expect(() => saveDraft(db, annotator, assignmentId, { values: {} }, -5)).toThrow(/ms:/);
  });
});
