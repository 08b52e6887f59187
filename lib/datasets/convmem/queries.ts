/**
 * The browse pages of LoCoMo and LongMemEval data sets: the threads (conversations or questions), sorted,
 * searched (in the key and the questions' text) and paged by SQL; one thread's sessions a page at a time
 * (a LongMemEval M haystack holds ~500), with its QA items.
 */
import { sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { pageWindow, type Paged } from "@/lib/paging";
import type { ListState } from "../browse/params";
import { loadTimeline, threadInfo, type TimelineSession } from "./thread";

export const CM_THREAD_SORTS = ["position", "threadKey", "sessions", "turns", "qa"] as const;
export type CmThreadSort = (typeof CM_THREAD_SORTS)[number];

export type CmThreadRow = { threadKey: string; sessions: number; turns: number; qa: number; firstQuestion: string | null };

const ORDER: Record<CmThreadSort, string> = {
  position: "t.position",
  threadKey: "t.thread_key",
  sessions: "t.session_count",
  turns: "t.turn_count",
  qa: "t.qa_count",
};

const like = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export function listThreads(db: Db, datasetId: number, st: ListState<CmThreadSort>): Paged<CmThreadRow> {
  const { page, pageSize, offset } = pageWindow(st.page, st.pageSize);
  const order = sql.raw(`${ORDER[st.sort] ?? ORDER.position} ${st.dir === "desc" ? "DESC" : "ASC"}, t.position`);
  const filter = st.filter
    ? sql`AND (t.thread_key LIKE ${like(st.filter)} ESCAPE '\\' OR EXISTS (SELECT 1 FROM cm_qa q WHERE q.thread_id = t.id AND q.question LIKE ${like(st.filter)} ESCAPE '\\'))`
    : sql``;
  const rows = db.all<CmThreadRow>(
    sql`SELECT t.thread_key AS threadKey, t.session_count AS sessions, t.turn_count AS turns, t.qa_count AS qa,
          (SELECT q.question FROM cm_qa q WHERE q.thread_id = t.id ORDER BY q.position LIMIT 1) AS firstQuestion
        FROM cm_threads t WHERE t.dataset_id = ${datasetId} ${filter} ORDER BY ${order} LIMIT ${pageSize} OFFSET ${offset}`,
  );
  const total = db.get<{ n: number }>(sql`SELECT count(*) AS n FROM cm_threads t WHERE t.dataset_id = ${datasetId} ${filter}`)?.n ?? 0;
  return { rows, total, page, pageSize };
}

export type CmQaRow = {
  itemKey: string;
  question: string;
  answer: string;
  category: number | null;
  questionType: string | null;
  evidence: string[];
  adversarialAnswer: string | null;
  questionDate: string | null;
};

export type CmThreadPage = {
  threadKey: string;
  speakerA: string | null;
  speakerB: string | null;
  sessionCount: number;
  turnCount: number;
  sessions: TimelineSession[];
  qa: CmQaRow[];
  page: number;
  pageSize: number;
};

/** One thread with one page of its sessions (all of its QA: a few hundred at most); null when it does not exist. */
export function getThread(db: Db, datasetId: number, threadKey: string, page = 1, pageSize = 10): CmThreadPage | null {
  const row = db.get<{ id: number; sessionCount: number; turnCount: number } | undefined>(
    sql`SELECT id, session_count AS sessionCount, turn_count AS turnCount FROM cm_threads WHERE dataset_id = ${datasetId} AND thread_key = ${threadKey}`,
  );
  if (!row) return null;
  const info = threadInfo(db, datasetId, threadKey);
  const w = pageWindow(page, pageSize, { maxSize: 50 });
  const sessions = loadTimeline(db, row.id, { offset: w.offset, limit: w.pageSize });
  const qa = db
    .all<Omit<CmQaRow, "evidence"> & { evidence: string | null }>(
      sql`SELECT item_key AS itemKey, question, answer, category, question_type AS questionType, evidence,
            adversarial_answer AS adversarialAnswer, question_date AS questionDate
          FROM cm_qa WHERE thread_id = ${row.id} ORDER BY position`,
    )
    .map((q) => ({ ...q, evidence: q.evidence ? (JSON.parse(q.evidence) as string[]) : [] }));
  return {
    threadKey,
    speakerA: info.speakerA,
    speakerB: info.speakerB,
    sessionCount: row.sessionCount,
    turnCount: row.turnCount,
    sessions,
    qa,
    page: w.page,
    pageSize: w.pageSize,
  };
}
