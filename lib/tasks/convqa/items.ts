/**
 * The QA items of a LoCoMo or LongMemEval data set: one per QA entry, asked of the thread's memory
 * (LoCoMo: the conversation's; LongMemEval: the question's haystack). References and evidence are read
 * here for scoring and never reach a method.
 */
import { sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { NotFoundError } from "@/lib/errors";
import type { TaskItem } from "../palset-items";

export type ConvItem = {
  itemKey: string;
  threadKey: string;
  position: number;
  question: string;
  answer: string;
  category: number | null;
  questionType: string | null;
  evidence: string[];
  adversarialAnswer: string | null;
  questionDate: string | null;
  /** Sessions in the thread's timeline: the question comes after all of them. */
  sessions: number;
};

export function listConvItems(db: Db, datasetId: number, users: "all" | string[]): TaskItem[] {
  const rows = db.all<{ itemKey: string; userKey: string }>(
    sql`SELECT q.item_key AS itemKey, t.thread_key AS userKey FROM cm_qa q JOIN cm_threads t ON t.id = q.thread_id
        WHERE q.dataset_id = ${datasetId} ORDER BY t.position, q.position`,
  );
  if (users === "all") return rows;
  const wanted = new Set(users);
  return rows.filter((r) => wanted.has(r.userKey));
}

export function loadConvItem(db: Db, datasetId: number, itemKey: string): ConvItem {
  const r = db.get<
    (Omit<ConvItem, "evidence"> & { evidence: string | null }) | undefined
  >(sql`SELECT q.item_key AS itemKey, t.thread_key AS threadKey, q.position, q.question, q.answer, q.category,
          q.question_type AS questionType, q.evidence, q.adversarial_answer AS adversarialAnswer, q.question_date AS questionDate,
          t.session_count AS sessions
        FROM cm_qa q JOIN cm_threads t ON t.id = q.thread_id WHERE q.dataset_id = ${datasetId} AND q.item_key = ${itemKey}`);
  if (!r) throw new NotFoundError(`no QA item "${itemKey}" in this data set`);
  return { ...r, evidence: r.evidence ? (JSON.parse(r.evidence) as string[]) : [] };
}

/** LongMemEval's abstention questions: ids ending in `_abs` (the README's rule, as evaluate_qa.py tests it). */
export const isAbstention = (itemKey: string) => itemKey.includes("_abs");

/** The reference an answer is scored against, as a person reads it. */
export function referenceText(it: ConvItem): string {
  if (it.category === 5) return `Not answerable from the conversation (the adversarial answer: ${it.adversarialAnswer ?? "?"})`;
  return it.answer;
}
