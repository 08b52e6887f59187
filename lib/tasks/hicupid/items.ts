/**
 * The items of the `hicupid` task: the QA pairs of the chosen splits (test_1: users seen in training,
 * test_2: unseen users), keyed "<user>/<split>/<position>". Loading keeps what the assistant may see (the
 * question, the user's dialogue history) apart from what only the judges and the scores read (answers,
 * metadata, relevant dialogue ids).
 */
import { and, asc, eq, inArray } from "drizzle-orm";
import type { Db } from "@/db/client";
import { hcDialogues, hcQa, hcUsers } from "@/db/schema";
import { NotFoundError } from "@/lib/errors";
import { hashSeed, seededShuffle } from "@/lib/random";
import type { QaMetadata } from "@/lib/judges/hicupid";
import type { TaskItem } from "../palset-items";
import { fixedShots, PUBLIC_FEWSHOT, type FixedShot } from "./fewshot";
import { readableFields, type InfoCard } from "../readable";

export type HcType = "persona" | "profile" | "schedule";

export type HcItem = {
  userKey: string;
  split: string;
  position: number;
  type: HcType;
  question: string;
  /** Judge and score material: never in an assistant prompt. */
  personalizedAnswer: string;
  generalAnswer: string;
  relevantDialogues: string[];
  metadata: QaMetadata;
};

/**
 * The items of the chosen splits (and users). `perSplit`: a sample of that many items per split, drawn
 * with the experiment's seed (a seeded shuffle of the split, then the first perSplit), listed in file
 * order. Not the first rows: those are the first users' questions only.
 */
export function listHcItems(
  db: Db,
  datasetId: number,
  users: "all" | string[],
  splits: readonly string[],
  perSplit?: number,
  seed = 0,
): TaskItem[] {
  const where = [eq(hcQa.datasetId, datasetId), inArray(hcQa.split, [...splits])];
  if (users !== "all") where.push(inArray(hcUsers.userKey, users));
  const rows = db
    .select({ userKey: hcUsers.userKey, split: hcQa.split, position: hcQa.position })
    .from(hcQa)
    .innerJoin(hcUsers, eq(hcUsers.id, hcQa.userId))
    .where(and(...where))
    .orderBy(asc(hcQa.split), asc(hcUsers.position), asc(hcQa.position))
    .all();
  let picked = rows.map((r, i) => ({ ...r, i }));
  if (perSplit !== undefined) {
    const keep = new Set<number>();
    for (const split of new Set(rows.map((r) => r.split))) {
      const inSplit = picked.filter((r) => r.split === split);
      for (const r of seededShuffle(inSplit, hashSeed(`${seed}|perSplit|${split}`)).slice(0, perSplit)) keep.add(r.i);
    }
    picked = picked.filter((r) => keep.has(r.i));
  }
  return picked.map((r) => ({ itemKey: `${r.userKey}/${r.split}/${r.position}`, userKey: r.userKey }));
}

const keys = (v: unknown): string[] => (Array.isArray(v) ? v.map(String) : v === null || v === undefined ? [] : [String(v)]);

export function loadHcItem(db: Db, datasetId: number, itemKey: string): HcItem {
  const [userKey, split, pos] = itemKey.split("/");
  const row = db
    .select({ qa: hcQa })
    .from(hcQa)
    .innerJoin(hcUsers, eq(hcUsers.id, hcQa.userId))
    .where(and(eq(hcQa.datasetId, datasetId), eq(hcUsers.userKey, userKey), eq(hcQa.split, split ?? ""), eq(hcQa.position, Number(pos))))
    .get();
  if (!row) throw new NotFoundError(`item ${itemKey}: no such HiCUPID question in this data set`);
  const q = row.qa;
  return {
    userKey,
    split: q.split,
    position: q.position,
    type: q.type as HcType,
    question: q.question,
    personalizedAnswer: q.personalizedAnswer,
    generalAnswer: q.generalAnswer,
    relevantDialogues: keys(q.dialogueIds),
    metadata: (q.metadata ?? {}) as QaMetadata,
  };
}

export type FewShotExample = { type: "persona" | "profile" | "schedule"; question: string; answer: string; generalAnswer: string };

/**
 * The examples of a prompt and where they came from: "public-code" (the public code's fixed train QAs, found
 * in the imported train split) or "seeded" (the fallback draw below); `ownUser` counts the examples that are
 * the item's own user's train QAs (only possible with the fixed ones, which every item gets, as in the public code).
 */
export type FewShotSet = { examples: FewShotExample[]; source: "public-code" | "seeded" | "none"; ownUser: number };

/**
 * Few-shot examples. HiCUPID (Appendix A7): "randomly sampled from the train set and fixed across all
 * experiments"; the public code fixes them (fewshot.ts): the same examples for every item, set i for i
 * shots. Those train QAs are used when the imported train split holds them all; otherwise the seeded draw.
 */
export function fewShotSet(
  db: Db,
  datasetId: number,
  shots: number,
  opts: { excludeUser: string; seed: number; fixed?: readonly FixedShot[] },
): FewShotSet {
  if (!shots) return { examples: [], source: "none", ownUser: 0 };
  const fixed = fixedShots(db, datasetId, shots, opts.fixed ?? PUBLIC_FEWSHOT);
  if (fixed) {
    return {
      examples: fixed.map((r) => ({ type: r.type, question: r.question, answer: r.answer, generalAnswer: r.generalAnswer })),
      source: "public-code",
      ownUser: fixed.filter((r) => r.userKey === opts.excludeUser).length,
    };
  }
  return { examples: fewShotExamples(db, datasetId, shots, opts), source: "seeded", ownUser: 0 };
}

/**
 * The fallback draw, when the train split lacks the public code's examples: per type, the train QAs in a
 * seeded random order (fixed for a seed, so the same in every experiment with that seed); shot i = the
 * i-th persona, multi-info (profile) and schedule QA of that order whose user is not the item's user
 * (test_1 users are also train users: their own train answers would show their preferences). A type with
 * too few QAs of other users gives fewer examples. A shot is question, personalized answer and general answer only, as
 * HiCUPID gives it (Appendix A7, "Few-shot": "Each set includes a question, a personalized answer,
 * and a general answer for each QA pair type"; Figures A12-A13 show the examples as those three lines,
 * and the public evaluation scripts' few-shot prompts hold the same three fields with no dialogue):
 * no dialogue of the example's user and nothing of the test item is given.
 */
export function fewShotExamples(db: Db, datasetId: number, shots: number, opts: { excludeUser: string; seed: number }): FewShotExample[] {
  if (!shots) return [];
  const out: FewShotExample[] = [];
  const byType = (type: FewShotExample["type"]) => {
    const rows = db
      .select({ userKey: hcUsers.userKey, question: hcQa.question, answer: hcQa.personalizedAnswer, generalAnswer: hcQa.generalAnswer })
      .from(hcQa)
      .innerJoin(hcUsers, eq(hcUsers.id, hcQa.userId))
      .where(and(eq(hcQa.datasetId, datasetId), eq(hcQa.split, "train"), eq(hcQa.type, type)))
      .orderBy(asc(hcUsers.position), asc(hcQa.position))
      .all();
    return seededShuffle(rows, hashSeed(`${opts.seed}|fewshot|${type}`))
      .filter((r) => r.userKey !== opts.excludeUser)
      .slice(0, shots)
      .map((r) => ({ type, question: r.question, answer: r.answer, generalAnswer: r.generalAnswer }));
  };
  const lists = (["persona", "profile", "schedule"] as const).map(byType);
  for (let i = 0; i < shots; i++) for (const l of lists) if (l[i]) out.push(l[i]);
  return out;
}

/** What a case study shows of a HiCUPID item. */
export function describeHcItem(db: Db, datasetId: number, itemKey: string): Array<{ label: string; text: string }> {
  const it = loadHcItem(db, datasetId, itemKey);
  return [
    { label: "Type", text: it.type },
    { label: "Question", text: it.question },
    { label: "Personalized answer (reference)", text: it.personalizedAnswer },
    { label: "General answer", text: it.generalAnswer },
    { label: "Relevant dialogues", text: it.relevantDialogues.join(", ") },
    { label: "Metadata (judges only)", text: JSON.stringify(it.metadata) },
  ].filter((r) => r.text);
}

/** A HiCUPID item as cards: the question, then what only the judges read; the personalized answer is the reference. */
export function presentHcItem(db: Db, datasetId: number, itemKey: string) {
  const it = loadHcItem(db, datasetId, itemKey);
  const cards: InfoCard[] = [
    { title: "Question", fields: [...readableFields(it.type, "Type"), ...readableFields(it.question, "Question")] },
    {
      title: "References (never shown to the assistant)",
      fields: [
        ...readableFields(it.personalizedAnswer, "Personalized answer"),
        ...readableFields(it.generalAnswer, "General answer"),
        ...readableFields(it.relevantDialogues, "Relevant dialogues"),
        ...readableFields(it.metadata, "Metadata"),
      ],
    },
  ];
  return { cards, reference: readableFields(it.personalizedAnswer, "Personalized answer (reference)") };
}

/** The type (persona, profile, schedule, or null) of each of a user's dialogues, by dialogue key. */
export function dialogueTypes(db: Db, datasetId: number, userKey: string): Map<string, string | null> {
  const rows = db
    .select({ key: hcDialogues.dialogueKey, type: hcDialogues.type })
    .from(hcDialogues)
    .innerJoin(hcUsers, eq(hcUsers.id, hcDialogues.userId))
    .where(and(eq(hcDialogues.datasetId, datasetId), eq(hcUsers.userKey, userKey)))
    .all();
  return new Map(rows.map((r) => [r.key, r.type]));
}

/** The A/B items (persona and profile) of a run's item list, with their types, in list order. */
export function abItemTypes(db: Db, datasetId: number, itemKeys: readonly string[]): Array<{ itemKey: string; type: HcType }> {
  return itemKeys.map((k) => ({ itemKey: k, type: loadHcItem(db, datasetId, k).type })).filter((x) => x.type !== "schedule");
}
