/**
 * Highlights on a case study (table case_marks): a researcher marks a passage of one block of an item
 * in one of three colours (Mem-PAL Figure 4: matches the user's background or need, fits the preference,
 * contradicts it) with an optional note. Each mark has its author; everyone on the team sees all marks,
 * only the author (or an admin) removes one.
 */
import { z } from "zod";
import { and, asc, eq, inArray } from "drizzle-orm";
import type { Db } from "@/db/client";
import { caseMarks, jobs, MARK_COLOURS, users, type MarkColour } from "@/db/schema";
import { ForbiddenError, InvalidInputError, NotFoundError } from "@/lib/errors";
import { getExperimentRow } from "./control";
import { parseBody } from "./service";
import { refuseControlChars } from "@/lib/xml-text";
import { methodDisplayName, methodNames } from "./method-choices";

/** What each colour means, in the words the pages and exports use. */
export const MARK_MEANINGS: Record<MarkColour, string> = {
  need: "matches the user's background or need",
  preference: "fits the user's preference",
  contradicts: "contradicts the user's preference",
};

export type CaseMark = {
  id: number;
  block: string;
  start: number;
  end: number;
  quote: string;
  colour: MarkColour;
  note: string | null;
  userId: number;
  author: string;
  /** Where the passage is, in words ("vanilla-log · turn 2 reply", "Profile › Occupation"). */
  where: string;
  createdAt: number;
};

/** A block id in words, naming the method of a job's block (method by job id). */
export function describeBlock(block: string, methodOf: (jobId: number) => string | undefined): string {
  const [kind, ...rest] = block.split(":");
  if (kind === "info") return rest.join(":").replace(":", " › ");
  if (kind === "input") return `Input › ${rest.join(":")}`;
  if (kind === "reference") return `Reference › ${rest.join(":")}`;
  const method = methodOf(Number(rest[0])) ?? `job ${rest[0]}`;
  const part = rest[1] ?? "";
  const u = /^u(\d+)$/.exec(part);
  // Utterances alternate user / assistant from the user's first line.
  if (u) return `${method} · turn ${Math.floor(Number(u[1]) / 2) + 1} ${Number(u[1]) % 2 ? "reply" : "user"}`;
  if (part === "answer") return `${method} › ${rest.slice(2).join(":")}`;
  if (part === "mem") return `${method} · memory ${/^t\d+$/.test(rest[2] ?? "") ? `of turn ${rest[2].slice(1)}` : `(${rest[2]})`}`;
  if (part === "judge") return `${method.replace("~", " vs ")} · ${rest[2]} judgment ${Number(rest[3]) + 1}`;
  return method;
}

export function listMarks(
  db: Db,
  experimentId: number,
  item?: { task: string; itemKey: string },
): Array<CaseMark & { task: string; itemKey: string }> {
  const where = [eq(caseMarks.experimentId, experimentId)];
  if (item) where.push(eq(caseMarks.task, item.task), eq(caseMarks.itemKey, item.itemKey));
  const rows = db
    .select({
      id: caseMarks.id,
      task: caseMarks.task,
      itemKey: caseMarks.itemKey,
      block: caseMarks.block,
      start: caseMarks.start,
      end: caseMarks.end,
      quote: caseMarks.quote,
      colour: caseMarks.colour,
      note: caseMarks.note,
      userId: caseMarks.userId,
      name: users.name,
      email: users.email,
      createdAt: caseMarks.createdAt,
    })
    .from(caseMarks)
    .innerJoin(users, eq(users.id, caseMarks.userId))
    .where(and(...where))
    .orderBy(asc(caseMarks.block), asc(caseMarks.start), asc(caseMarks.id))
    .all();
  const jobIds = [
    ...new Set(
      rows
        .map((m) => /^job:(\d+):/.exec(m.block)?.[1])
        .filter((x): x is string => !!x)
        .map(Number),
    ),
  ];
  const methods = new Map(
    jobIds.length
      ? db
          .select({ id: jobs.id, method: jobs.method })
          .from(jobs)
          .where(inArray(jobs.id, jobIds))
          .all()
          .map((j) => [j.id, j.method])
      : [],
  );
  // Methods under their display names ("Vanilla + logs · turn 2 reply"), not their keys.
  const names = methods.size
    ? methodNames((getExperimentRow(db, experimentId).config as { methods?: Array<{ name: string; label?: string }> }).methods ?? [])
    : {};
  const display = (k: string) => names[k] ?? methodDisplayName({ name: k });
  // A pair's job "a~b" keeps its "~" (describeBlock reads it as "A vs B").
  for (const [jobId, key] of methods) methods.set(jobId, key.split("~").map(display).join("~"));
  return rows.map(({ name, email, ...m }) => ({ ...m, author: name || email, where: describeBlock(m.block, (id) => methods.get(id)) }));
}

const markBody = z
  .object({
    task: z.string().min(1).max(100),
    itemKey: z.string().min(1).max(300),
    block: z
      .string()
      .min(1)
      .max(200)
      .regex(/^(info|input|reference|job):/, "must start with info:, input:, reference: or job:"),
    start: z.number().int().min(0),
    end: z.number().int().min(1),
    quote: z.string().min(1).max(4000),
    colour: z.enum(MARK_COLOURS),
    note: z.string().max(2000).optional(),
  })
  .strict();

export function addMark(db: Db, experimentId: number, userId: number, raw: unknown): CaseMark {
  const b = parseBody(markBody, raw);
  refuseControlChars("body.quote", b.quote);
  refuseControlChars("body.note", b.note);
  if (b.end <= b.start) throw new InvalidInputError(`body.end: ${b.end} must be after body.start (${b.start})`);
  if (b.end - b.start !== b.quote.length)
    throw new InvalidInputError(`body.quote: ${b.quote.length} characters, but start..end spans ${b.end - b.start}`);
  getExperimentRow(db, experimentId);
  const item = db
    .select({ id: jobs.id })
    .from(jobs)
    .where(and(eq(jobs.experimentId, experimentId), eq(jobs.task, b.task), eq(jobs.itemKey, b.itemKey)))
    .get();
  if (!item) throw new NotFoundError(`experiment ${experimentId} has no item ${b.task} · ${b.itemKey}`);
  const jobBlock = /^job:(\d+):/.exec(b.block);
  if (jobBlock) {
    const j = db
      .select({ id: jobs.id })
      .from(jobs)
      .where(and(eq(jobs.experimentId, experimentId), eq(jobs.id, Number(jobBlock[1])), eq(jobs.task, b.task), eq(jobs.itemKey, b.itemKey)))
      .get();
    if (!j)
      throw new InvalidInputError(
        `body.block: job ${jobBlock[1]} is not an output of ${b.task} · ${b.itemKey} in experiment ${experimentId}`,
      );
  }
  const note = b.note?.trim() || null;
  const row = db
    .insert(caseMarks)
    .values({
      experimentId,
      task: b.task,
      itemKey: b.itemKey,
      block: b.block,
      start: b.start,
      end: b.end,
      quote: b.quote,
      colour: b.colour,
      note,
      userId,
    })
    .returning()
    .get();
  return listMarks(db, experimentId, { task: b.task, itemKey: b.itemKey }).find((m) => m.id === row.id)!;
}

export function deleteMark(db: Db, experimentId: number, markId: number, actor: { id: number; role: string }): void {
  const m = db
    .select({ userId: caseMarks.userId })
    .from(caseMarks)
    .where(and(eq(caseMarks.experimentId, experimentId), eq(caseMarks.id, markId)))
    .get();
  if (!m) throw new NotFoundError(`experiment ${experimentId} has no mark ${markId}`);
  if (m.userId !== actor.id && actor.role !== "admin")
    throw new ForbiddenError(`mark ${markId} belongs to another user: only its author or an admin removes it`);
  db.delete(caseMarks).where(eq(caseMarks.id, markId)).run();
}
