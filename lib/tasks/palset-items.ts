/**
 * The evaluation items of PAL-Bench: every topic of every query session. An item key is
 * "<user>/<sample>/<topic>"; loading an item returns what the task, the simulator and the judges need,
 * kept in separate fields so that each prompt takes only what it may see.
 */
import { and, asc, eq, inArray } from "drizzle-orm";
import type { Db } from "@/db/client";
import { palCandidates, palRequirementTypes, palSamples, palTopics, palUsers } from "@/db/schema";
import { NotFoundError } from "@/lib/errors";
import type { Feedback } from "@/lib/metrics";
import type { NeedEntry, SolutionEntry } from "@/lib/judges/dialogue-pair";
import { readableFields, type Field, type InfoCard } from "./readable";

export type TaskItem = { itemKey: string; userKey: string };

export function listQueryTopics(db: Db, datasetId: number, users: "all" | string[]): TaskItem[] {
  const where = [eq(palSamples.datasetId, datasetId), eq(palSamples.split, "query")];
  if (users !== "all") where.push(inArray(palUsers.userKey, users));
  return db
    .select({ userKey: palUsers.userKey, sampleKey: palSamples.sampleKey, topicKey: palTopics.topicKey })
    .from(palTopics)
    .innerJoin(palSamples, eq(palSamples.id, palTopics.sampleId))
    .innerJoin(palUsers, eq(palUsers.id, palSamples.userId))
    .where(and(...where))
    .orderBy(asc(palUsers.position), asc(palSamples.seq), asc(palTopics.position))
    .all()
    .map((r) => ({ itemKey: `${r.userKey}/${r.sampleKey}/${r.topicKey}`, userKey: r.userKey }));
}

export type PalItem = {
  userKey: string;
  sampleKey: string;
  topicKey: string;
  /** The session's position in the user's timeline: memory is built from the sessions before it. */
  sessionSeq: number;
  userQuery: string;
  implicitNeeds: string[];
  requirement: string;
  solutions: { pos: string[]; neg: string[] };
  candidates: Array<{ id: string; solution: string; feedback: Feedback }>;
  background: Record<string, unknown> | null;
  situation: string;
  generalPreference: { pos: string[]; neg: string[] } | null;
  dialogueTemplate: Record<string, unknown> | null;
  /**
   * What the dialogue task's simulator and judge read (Mem-PAL's public evaluation code): the requirement
   * framework's needs, each with its evidence, and the solution preference's solutions, each with its reason.
   * Where the data set has no framework / solution preference, the bare needs and solutions.
   */
  framework: { needs: NeedEntry[]; solutions: { pos: SolutionEntry[]; neg: SolutionEntry[] }; from: "framework" | "bare" };
};

const str = (v: unknown): string | undefined => (typeof v === "string" && v.trim() ? v : undefined);

/** The framework's needs ({need, evidence}) when every entry has a need; else null. */
function frameworkNeeds(f: Record<string, unknown> | null): NeedEntry[] | null {
  const list = f?.implicit_needs;
  if (!Array.isArray(list) || !list.length) return null;
  const out: NeedEntry[] = [];
  for (const e of list) {
    const need = str((e as { need?: unknown })?.need);
    if (!need) return null;
    const evidence = str((e as { evidence?: unknown }).evidence);
    out.push(evidence ? { need, evidence } : { need });
  }
  return out;
}

/** The solution preference's lists ({solution, reason}) when both are well formed; else null. */
function preferenceSolutions(p: Record<string, unknown> | null): { pos: SolutionEntry[]; neg: SolutionEntry[] } | null {
  const side = (v: unknown): SolutionEntry[] | null => {
    if (!Array.isArray(v) || !v.length) return null;
    const out: SolutionEntry[] = [];
    for (const e of v) {
      const solution = str((e as { solution?: unknown })?.solution);
      if (!solution) return null;
      const reason = str((e as { reason?: unknown }).reason);
      out.push(reason ? { solution, reason } : { solution });
    }
    return out;
  };
  const pos = side(p?.pos_list);
  const neg = side(p?.neg_list);
  return pos && neg ? { pos, neg } : null;
}

export function loadPalItem(db: Db, datasetId: number, itemKey: string): PalItem {
  const [userKey, sampleKey, topicKey] = itemKey.split("/");
  const row = db
    .select({ user: palUsers, sample: palSamples, topic: palTopics })
    .from(palTopics)
    .innerJoin(palSamples, eq(palSamples.id, palTopics.sampleId))
    .innerJoin(palUsers, eq(palUsers.id, palSamples.userId))
    .where(
      and(
        eq(palUsers.datasetId, datasetId),
        eq(palUsers.userKey, userKey),
        eq(palSamples.sampleKey, sampleKey ?? ""),
        eq(palTopics.topicKey, topicKey ?? ""),
      ),
    )
    .get();
  if (!row) throw new NotFoundError(`item ${itemKey}: no such query topic in this data set`);
  const candidates = db
    .select()
    .from(palCandidates)
    .where(eq(palCandidates.topicId, row.topic.id))
    .orderBy(asc(palCandidates.position))
    .all()
    .map((c, i) => ({ id: String(i + 1), solution: c.solution, feedback: c.feedback }));
  let generalPreference: PalItem["generalPreference"] = null;
  if (row.topic.requirementTypeKey) {
    const t = db
      .select()
      .from(palRequirementTypes)
      .where(and(eq(palRequirementTypes.userId, row.user.id), eq(palRequirementTypes.typeKey, row.topic.requirementTypeKey)))
      .get();
    if (t) generalPreference = { pos: t.preferencePos ?? [], neg: t.preferenceNeg ?? [] };
  }
  const sit = row.sample.situation as { situation?: unknown } | null;
  return {
    userKey,
    sampleKey: row.sample.sampleKey,
    topicKey: row.topic.topicKey,
    sessionSeq: row.sample.seq,
    userQuery: row.topic.userQuery,
    implicitNeeds: row.topic.implicitNeeds,
    requirement: row.topic.requirement,
    solutions: { pos: row.topic.solutionPos, neg: row.topic.solutionNeg },
    candidates,
    background: row.user.background,
    situation: typeof sit?.situation === "string" ? sit.situation : "",
    generalPreference,
    dialogueTemplate: row.topic.dialogueTemplate,
    framework: (() => {
      const needs = frameworkNeeds(row.topic.framework);
      const sols = preferenceSolutions(row.topic.solutionPreference);
      return {
        needs: needs ?? row.topic.implicitNeeds,
        solutions: sols ?? { pos: row.topic.solutionPos, neg: row.topic.solutionNeg },
        from: needs && sols ? ("framework" as const) : ("bare" as const),
      };
    })(),
  };
}

const MEMO_ITEMS = 10_000;

/**
 * loadPalItem through the worker run's memo: an experiment asks for the same item once per repeat and
 * method, and the data set cannot change while the experiment exists. The items are read-only.
 */
export function palItemOf(ctx: { db: Db; datasetId: number; memo?: Map<string, unknown> }, itemKey: string): PalItem {
  const k = `palItem\u0000${ctx.datasetId}\u0000${itemKey}`;
  let it = ctx.memo?.get(k) as PalItem | undefined;
  if (!it) {
    it = loadPalItem(ctx.db, ctx.datasetId, itemKey);
    if (ctx.memo && ctx.memo.size < MEMO_ITEMS) ctx.memo.set(k, it);
  }
  return it;
}

/** Background and personality as the simulator and the judges read them. */
export function describeUser(bg: Record<string, unknown> | null): { background: string; personality: string } {
  if (!bg) return { background: "", personality: "" };
  const { personality, ...rest } = bg;
  return { background: JSON.stringify(rest, null, 2), personality: personality ? JSON.stringify(personality, null, 2) : "" };
}

/** What a case study shows of a PAL-Bench item: the user, the situation, the query and the references. */
export function describePalItem(db: Db, datasetId: number, itemKey: string): Array<{ label: string; text: string }> {
  const it = loadPalItem(db, datasetId, itemKey);
  const u = describeUser(it.background);
  const rows = [
    { label: "Background", text: u.background },
    { label: "Personality", text: u.personality },
    { label: "Situation", text: it.situation },
    { label: "User query", text: it.userQuery },
    { label: "Implicit needs", text: it.implicitNeeds.join("\n") },
    { label: "Requirement (reference)", text: it.requirement },
    { label: "Positive solutions", text: it.solutions.pos.join("\n") },
    { label: "Negative solutions", text: it.solutions.neg.join("\n") },
  ];
  return rows.filter((r) => r.text);
}

/**
 * A PAL-Bench item as cards (Mem-PAL Figure 4's left column): the profile and personality field by field,
 * the situation, and the topic with its references. `reference` is what the task's answer is scored
 * against: the requirement (Task 1) or the positive solutions (Task 2); a dialogue shows both.
 */
export function presentPalItem(db: Db, datasetId: number, itemKey: string, task: "requirement" | "solution" | "dialogue") {
  const it = loadPalItem(db, datasetId, itemKey);
  const { personality, ...profile } = it.background ?? {};
  const f = (label: string, value: unknown): Field[] => readableFields(value, label);
  const cards: InfoCard[] = [
    { title: "Profile", fields: readableFields(profile) },
    { title: "Personality", fields: readableFields(personality) },
    { title: "Situation", fields: f("Situation", it.situation) },
    {
      title: "Topic and references (never shown to the assistant)",
      fields: [
        ...f("User query", it.userQuery),
        ...f("Implicit needs", it.implicitNeeds),
        ...f("Requirement (reference)", it.requirement),
        ...f("Preference: likes", it.generalPreference?.pos),
        ...f("Preference: dislikes", it.generalPreference?.neg),
        ...f("Positive solutions", it.solutions.pos),
        ...f("Negative solutions", it.solutions.neg),
      ],
    },
  ].filter((c) => c.fields.length);
  const reference =
    task === "requirement"
      ? f("Requirement (reference)", it.requirement)
      : task === "solution"
        ? f("Positive solutions (reference)", it.solutions.pos)
        : [...f("Requirement (reference)", it.requirement), ...f("Positive solutions", it.solutions.pos)];
  return { cards, reference };
}

/** The export's fields of a PAL-Set item: the user's query, and the task's reference (requirement, positive solutions, or both). */
export function exportPalItem(db: Db, datasetId: number, itemKey: string, task: "requirement" | "solution" | "dialogue") {
  const it = loadPalItem(db, datasetId, itemKey);
  const reference =
    task === "requirement"
      ? it.requirement
      : task === "solution"
        ? it.solutions.pos
        : { requirement: it.requirement, solutions: it.solutions.pos };
  return { question: it.userQuery, reference };
}
