/**
 * One thread's timeline as stored: its sessions in order with their dates and turns. Two queries
 * whatever the timeline's length (a LongMemEval M haystack holds ~500 sessions).
 */
import { sql } from "drizzle-orm";
import type { Queryable } from "../writer";
import { NotFoundError } from "@/lib/errors";
import type { StoredTurn } from "./pairing";

export type ThreadInfo = { id: number; key: string; speakerA: string | null; speakerB: string | null };
export type TimelineSession = { seq: number; label: string; sessionKey: string; date: string | null; turns: StoredTurn[] };

export function threadInfo(db: Queryable, datasetId: number, threadKey: string): ThreadInfo {
  const t = db.get<{ id: number; key: string; speakerA: string | null; speakerB: string | null } | undefined>(
    sql`SELECT id, thread_key AS key, speaker_a AS speakerA, speaker_b AS speakerB FROM cm_threads WHERE dataset_id = ${datasetId} AND thread_key = ${threadKey}`,
  );
  if (!t) throw new NotFoundError(`no conversation or question "${threadKey}" in this data set`);
  return t;
}

/** The thread's sessions in order; `window` takes a page of them (the browse page), else all (the methods). */
export function loadTimeline(db: Queryable, threadId: number, window?: { offset: number; limit: number }): TimelineSession[] {
  const limit = window ? sql`LIMIT ${window.limit} OFFSET ${window.offset}` : sql``;
  const entries = db.all<{ position: number; sessionId: number; label: string; date: string | null; sessionKey: string }>(
    sql`SELECT t.position, t.session_id AS sessionId, t.label, t.date, s.session_key AS sessionKey
        FROM cm_timeline t JOIN cm_sessions s ON s.id = t.session_id WHERE t.thread_id = ${threadId} ORDER BY t.position ${limit}`,
  );
  if (!entries.length) return [];
  const ids = JSON.stringify([...new Set(entries.map((e) => e.sessionId))]);
  const turns = db.all<StoredTurn & { sessionId: number; extra: string | null }>(
    sql`SELECT u.session_id AS sessionId, u.position, u.speaker, u.text, u.dia_id AS diaId, u.has_answer AS hasAnswer, u.extra
        FROM cm_turns u WHERE u.session_id IN (SELECT value FROM json_each(${ids}))
        ORDER BY u.session_id, u.position`,
  );
  const bySession = new Map<number, StoredTurn[]>();
  for (const t of turns) {
    const list = bySession.get(t.sessionId) ?? [];
    list.push({
      position: t.position,
      speaker: t.speaker,
      text: t.text,
      diaId: t.diaId,
      hasAnswer: t.hasAnswer,
      extra: t.extra ? (JSON.parse(t.extra) as Record<string, unknown>) : null,
    });
    bySession.set(t.sessionId, list);
  }
  return entries.map((e) => ({
    seq: e.position,
    label: e.label,
    sessionKey: e.sessionKey,
    date: e.date,
    turns: bySession.get(e.sessionId) ?? [],
  }));
}

/** The paired turns' side: LoCoMo's speaker_a, LongMemEval's "user". */
export function userSide(t: ThreadInfo): (speaker: string) => boolean {
  return t.speakerA === null ? (s) => s === "user" : (s) => s === t.speakerA;
}
