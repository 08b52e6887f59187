/**
 * The annotator's side: their queue, one item presented blinded, drafts, idempotent submit, skip.
 * Every function takes the signed-in user's id and only ever touches that user's assignments: an
 * assignment of someone else is "not found", whatever id is asked for.
 */
import { and, asc, count, eq, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import {
  assignmentSubmissions,
  assignments,
  campaignItems,
  campaignOutputs,
  campaignSystems,
  campaigns,
  labelHistory,
  labels,
} from "@/db/schema";
import { stmt } from "@/db/statements";
import { ConflictError, InvalidInputError, NotFoundError } from "@/lib/errors";
import { MAX_JSON_DEPTH, valueTooDeep } from "@/lib/json-depth";
import { canonicalValue, kindDef } from "./kinds";
import { assignmentsWithStatus, campaignDimensionsOf } from "./campaigns";
import { annotatorTitleOf } from "./blinding";
import { assertSlotForSubmit } from "./participants/serve";
import { submittedGuidelineVersion } from "./guideline-versions";

export interface MyCampaign {
  id: number;
  name: string;
  kind: string;
  status: "open" | "closed";
  total: number;
  done: number;
  skipped: number;
}

/** The annotator's campaigns, each under the title annotators see (never the researchers' name: it may name a system). */
export function myCampaigns(db: Db, userId: number): MyCampaign[] {
  const rows = db
    .select({
      id: campaigns.id,
      annotatorTitle: campaigns.annotatorTitle,
      kind: campaigns.kind,
      status: campaigns.status,
      total: count(),
      done: assignmentsWithStatus("done"),
      skipped: assignmentsWithStatus("skipped"),
    })
    .from(assignments)
    .innerJoin(campaigns, eq(campaigns.id, assignments.campaignId))
    .where(eq(assignments.annotatorId, userId))
    .groupBy(campaigns.id)
    .orderBy(asc(campaigns.id))
    .all();
  return rows.map(({ annotatorTitle, ...r }) => ({
    ...r,
    name: annotatorTitleOf({ annotatorTitle, kind: r.kind }, kindDef(r.kind).annotatorTitle),
  }));
}

export interface QueueEntry {
  assignmentId: number;
  status: "pending" | "done" | "skipped";
  /** Why the annotator skipped it (the completion screen lists what is left). */
  skipReason: string | null;
  /** How many of its dimensions carry a submitted comment. */
  comments: number;
}

export interface MyQueue {
  campaign: { id: number; name: string; kind: string; status: "open" | "closed"; guidelines: string; guidelinesVersion: number };
  entries: QueueEntry[];
  /** Where to resume: the first item not done or skipped (else the last). */
  resumeAt: number;
}

type QueueCampaignRow = Omit<MyQueue["campaign"], "name" | "guidelines"> & { guidelines: string | null; annotatorTitle: string | null };

/** The queue page's two reads (every annotate and crowd work page makes them): prepared once, not built per request. */
export function myQueue(db: Db, userId: number, campaignId: number): MyQueue {
  const c = Number.isInteger(campaignId)
    ? (stmt(
        db,
        "select id, kind, status, guidelines, guidelines_version as guidelinesVersion, annotator_title as annotatorTitle from campaigns where id = ?",
      ).get(campaignId) as QueueCampaignRow | undefined)
    : undefined;
  const entries = c
    ? (stmt(
        db,
        "select a.id as assignmentId, a.status as status, a.skip_reason as skipReason, (select count(*) from labels l where l.assignment_id = a.id and l.comment is not null) as comments from assignments a where a.campaign_id = ? and a.annotator_id = ? order by a.position",
      ).all(campaignId, userId) as QueueEntry[])
    : [];
  if (!c || entries.length === 0) throw new NotFoundError(`no campaign ${campaignId} in your queue`);
  const firstOpen = entries.findIndex((e) => e.status === "pending");
  return {
    campaign: {
      id: c.id,
      name: annotatorTitleOf(c, kindDef(c.kind).annotatorTitle),
      kind: c.kind,
      status: c.status,
      guidelines: c.guidelines ?? "",
      // Read with the text from the same row: the page sends it back with each label (guideline-versions.ts).
      guidelinesVersion: c.guidelinesVersion,
    },
    entries,
    resumeAt: firstOpen >= 0 ? firstOpen : entries.length - 1,
  };
}

type AssignmentRow = typeof assignments.$inferSelect;

function ownAssignment(db: Db, userId: number, assignmentId: number): AssignmentRow {
  const a = Number.isInteger(assignmentId)
    ? db
        .select()
        .from(assignments)
        .where(and(eq(assignments.id, assignmentId), eq(assignments.annotatorId, userId)))
        .get()
    : undefined;
  if (!a) throw new NotFoundError(`no assignment ${assignmentId} in your queue`);
  return a;
}

export interface Draft {
  values?: Record<string, string>;
  comments?: Record<string, string>;
}

/** What an annotator's browser receives: content and outputs in the shown order, no system, item or source id. */
export interface PresentedItem {
  assignmentId: number;
  kind: string;
  pairwise: boolean;
  campaignOpen: boolean;
  dimensions: Array<{
    key: string;
    title: string;
    question: string;
    choices: Array<{ key: string; value: string; label: string; asksComment: boolean }>;
  }>;
  content: Record<string, unknown>;
  left: unknown;
  right: unknown;
  status: "pending" | "done" | "skipped";
  skipReason: string | null;
  /** The annotator's current choices in shown terms: the submitted labels, overlaid by an unsaved draft. */
  values: Record<string, string>;
  comments: Record<string, string>;
  submitted: boolean;
  /**
   * Why the item cannot be shown, or null. Set for an item stored before nesting was bounded (deeper
   * than MAX_JSON_DEPTH): its content is left out, so the annotator can skip it instead of being stuck.
   */
  unrenderable: string | null;
}

export function presentAssignment(db: Db, userId: number, assignmentId: number): PresentedItem {
  const a = ownAssignment(db, userId, assignmentId);
  const c = db.select({ kind: campaigns.kind, status: campaigns.status }).from(campaigns).where(eq(campaigns.id, a.campaignId)).get()!;
  const def = kindDef(c.kind);
  const item = db.select({ content: campaignItems.content }).from(campaignItems).where(eq(campaignItems.id, a.itemId)).get()!;
  let left: unknown = null;
  let right: unknown = null;
  if (def.pairwise) {
    const outs = db
      .select({ slot: campaignSystems.slot, output: campaignOutputs.output })
      .from(campaignOutputs)
      .innerJoin(campaignSystems, eq(campaignSystems.id, campaignOutputs.systemId))
      .where(eq(campaignOutputs.itemId, a.itemId))
      .all();
    const A = outs.find((o) => o.slot === "A")?.output ?? null;
    const B = outs.find((o) => o.slot === "B")?.output ?? null;
    [left, right] = a.swapped ? [B, A] : [A, B];
  }
  const own = db.select().from(labels).where(eq(labels.assignmentId, a.id)).all();
  const values: Record<string, string> = {};
  const comments: Record<string, string> = {};
  for (const l of own) {
    values[l.dimension] = l.shownValue;
    if (l.comment) comments[l.dimension] = l.comment;
  }
  const draft = (a.draft ?? {}) as Draft;
  Object.assign(values, draft.values ?? {});
  Object.assign(comments, draft.comments ?? {});
  const dims = campaignDimensionsOf(db, a.campaignId);
  const tooDeep = [item.content, left, right].some((v) => valueTooDeep(v) !== null);
  return {
    assignmentId: a.id,
    kind: c.kind,
    pairwise: def.pairwise,
    campaignOpen: c.status === "open",
    dimensions: dims.map((d) => ({
      key: d.key,
      title: d.title,
      question: d.question,
      choices: def.keys.map((k) => ({ key: k.key, value: k.shown, label: k.label, asksComment: k.asksComment ?? false })),
    })),
    ...(tooDeep ? { content: {}, left: null, right: null } : { content: item.content as Record<string, unknown>, left, right }),
    unrenderable: tooDeep
      ? `this item's content is nested deeper than ${MAX_JSON_DEPTH} levels and cannot be shown; skip it (S) and tell the campaign's owner`
      : null,
    status: a.status,
    skipReason: a.skipReason,
    values,
    comments,
    submitted: own.length > 0,
  };
}

/**
 * Time one request may add to an item: at most an hour. More is clamped, not refused: a tab left
 * open over lunch is not annotation time, but the label submitted after it must still be stored.
 */
export const MAX_MS_PER_REQUEST = 60 * 60 * 1000;
/** A draft holds one choice and one comment per dimension; anything larger than this is not a draft. */
export const MAX_DRAFT_BYTES = 256 * 1024;
/** A comment (draft or submitted) keeps at most this many characters. */
const MAX_COMMENT_CHARS = 5000;

function msDelta(ms: unknown): number {
  const n = Number(ms ?? 0);
  if (!Number.isFinite(n) || n < 0) throw new InvalidInputError("ms: expected a non-negative number of milliseconds");
  return Math.min(Math.round(n), MAX_MS_PER_REQUEST);
}

function assertOpen(db: Db, campaignId: number) {
  const c = db.select({ status: campaigns.status }).from(campaigns).where(eq(campaigns.id, campaignId)).get();
  if (c?.status !== "open") throw new ConflictError("this campaign is closed");
}

/** A draft as stored: only the campaign's dimensions, strings only, within MAX_DRAFT_BYTES. */
function cleanDraft(draft: unknown, dimensions: ReadonlySet<string>): Draft {
  if (typeof draft !== "object" || draft === null || Array.isArray(draft)) throw new InvalidInputError("draft: expected an object");
  const d = draft as Record<string, unknown>;
  for (const k of Object.keys(d))
    if (k !== "values" && k !== "comments") throw new InvalidInputError(`draft.${k}: not part of a draft (values, comments)`);
  const rec = (v: unknown, f: string): Record<string, string> => {
    if (v === undefined) return {};
    if (typeof v !== "object" || v === null || Array.isArray(v)) throw new InvalidInputError(`draft.${f}: expected an object`);
    const out: Record<string, string> = {};
    for (const [k, x] of Object.entries(v)) {
      if (!dimensions.has(k)) throw new InvalidInputError(`draft.${f}.${k.slice(0, 80)}: not a dimension of this campaign`);
      if (typeof x !== "string" || x.length > MAX_COMMENT_CHARS)
        throw new InvalidInputError(`draft.${f}.${k}: expected a string (up to ${MAX_COMMENT_CHARS} characters)`);
      out[k] = x;
    }
    return out;
  };
  const clean = { values: rec(d.values, "values"), comments: rec(d.comments, "comments") };
  const bytes = Buffer.byteLength(JSON.stringify(clean));
  if (bytes > MAX_DRAFT_BYTES) throw new InvalidInputError(`draft: ${bytes} bytes; a draft is limited to ${MAX_DRAFT_BYTES} bytes`);
  return clean;
}

/** Autosave: refused on a closed campaign (nothing can be submitted there, so nothing is kept). */
export function saveDraft(db: Db, userId: number, assignmentId: number, draft: unknown, ms?: unknown): void {
  const a = ownAssignment(db, userId, assignmentId);
  assertOpen(db, a.campaignId);
  const clean = cleanDraft(draft, new Set(campaignDimensionsOf(db, a.campaignId).map((d) => d.key)));
  const add = msDelta(ms);
  db.update(assignments)
    .set({ draft: clean as Record<string, unknown>, msSpent: sql`${assignments.msSpent} + ${add}` })
    .where(eq(assignments.id, a.id))
    .run();
}

export interface Submission {
  submissionId: string;
  values: Record<string, string>;
  comments?: Record<string, string>;
  ms?: number;
  /** The guidelines' version the page showed (absent: the current one). */
  guidelineVersion?: unknown;
}

/**
 * Stores the labels of one item. Idempotent: any submissionId this assignment accepted before (a
 * double click, a retry after a lost response, a late retry of an older edit) changes nothing. A new submission for an item already labelled edits the
 * labels, keeping the replaced versions in label_history.
 */
export function submitLabels(db: Db, userId: number, assignmentId: number, body: Submission): { duplicate: boolean } {
  if (typeof body?.submissionId !== "string" || !/^[\w-]{8,80}$/.test(body.submissionId)) {
    throw new InvalidInputError("submissionId: expected a client-generated id of 8–80 letters, digits, - or _");
  }
  if (typeof body.values !== "object" || body.values === null)
    throw new InvalidInputError("values: expected an object of dimension → choice");
  const comments = body.comments ?? {};
  const add = msDelta(body.ms);
  // IMMEDIATE: take the write lock before reading, so concurrent writers queue on busy_timeout
  // instead of failing to upgrade a read lock.
  return db.transaction(
    (tx) => {
      const a = ownAssignment(tx as unknown as Db, userId, assignmentId);
      // Any id this assignment ever accepted, not only the last: a late retry of an older submission
      // must not undo a newer one.
      const seen = tx
        .select({ id: assignmentSubmissions.submissionId })
        .from(assignmentSubmissions)
        .where(and(eq(assignmentSubmissions.assignmentId, a.id), eq(assignmentSubmissions.submissionId, body.submissionId)))
        .get();
      if (seen || a.submissionId === body.submissionId) return { duplicate: true };
      assertOpen(tx as unknown as Db, a.campaignId);
      // A served item whose hold lapsed: refused once others filled its k (participants/serve.ts).
      assertSlotForSubmit(tx as unknown as Db, a);
      const c = tx
        .select({ kind: campaigns.kind, guidelinesVersion: campaigns.guidelinesVersion })
        .from(campaigns)
        .where(eq(campaigns.id, a.campaignId))
        .get()!;
      const guidelineVersion = submittedGuidelineVersion(c.guidelinesVersion, body.guidelineVersion);
      const def = kindDef(c.kind);
      const dims = campaignDimensionsOf(tx as unknown as Db, a.campaignId);
      const allowed = new Set(def.keys.map((k) => k.shown));
      for (const k of Object.keys(body.values)) {
        if (!dims.some((d) => d.key === k)) throw new InvalidInputError(`values.${k}: not a dimension of this campaign`);
      }
      for (const d of dims) {
        const v = body.values[d.key];
        if (v === undefined) throw new InvalidInputError(`values.${d.key}: missing`);
        if (!allowed.has(v)) throw new InvalidInputError(`values.${d.key}: expected one of ${[...allowed].join(", ")}, got "${v}"`);
        const comment =
          typeof comments[d.key] === "string" && comments[d.key].trim() ? comments[d.key].trim().slice(0, MAX_COMMENT_CHARS) : null;
        const value = canonicalValue(def, v, a.swapped);
        const old = tx
          .select()
          .from(labels)
          .where(and(eq(labels.assignmentId, a.id), eq(labels.dimension, d.key)))
          .get();
        if (!old) {
          tx.insert(labels)
            .values({ assignmentId: a.id, dimension: d.key, value, shownValue: v, swapped: a.swapped, comment, guidelineVersion })
            .run();
        } else if (old.value !== value || old.comment !== comment || old.guidelineVersion !== guidelineVersion) {
          tx.insert(labelHistory)
            .values({
              labelId: old.id,
              value: old.value,
              shownValue: old.shownValue,
              comment: old.comment,
              writtenAt: old.updatedAt ?? old.createdAt,
            })
            .run();
          tx.update(labels)
            .set({ value, shownValue: v, comment, guidelineVersion, updatedAt: Date.now() })
            .where(eq(labels.id, old.id))
            .run();
        }
      }
      tx.update(assignments)
        .set({
          status: "done",
          skipReason: null,
          draft: null,
          submissionId: body.submissionId,
          submittedAt: Date.now(),
          msSpent: sql`${assignments.msSpent} + ${add}`,
        })
        .where(eq(assignments.id, a.id))
        .run();
      tx.insert(assignmentSubmissions).values({ assignmentId: a.id, submissionId: body.submissionId }).run();
      return { duplicate: false };
    },
    { behavior: "immediate" },
  );
}

export function skipAssignment(db: Db, userId: number, assignmentId: number, reason: unknown, ms?: unknown): void {
  const a = ownAssignment(db, userId, assignmentId);
  assertOpen(db, a.campaignId);
  if (typeof reason !== "string" || reason.trim() === "") throw new InvalidInputError("reason: say why you skip this item");
  if (a.status === "done") throw new ConflictError("this item is already labelled");
  db.update(assignments)
    .set({ status: "skipped", skipReason: reason.trim().slice(0, 1000), msSpent: sql`${assignments.msSpent} + ${msDelta(ms)}` })
    .where(eq(assignments.id, a.id))
    .run();
}
