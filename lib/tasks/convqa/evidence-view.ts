/**
 * A LoCoMo or LongMemEval item's evidence as a researcher reads it beside two methods' answers (the compare
 * view, Mem-PAL Figure 4's layout for the benchmarks): the sessions that hold the evidence, each turn marked
 * when it is evidence (LoCoMo: its dia_id is in the QA item's `evidence`; LongMemEval: `has_answer` in an
 * `answer_session_ids` session) and with the methods whose retrieved context held it. Only the evidence
 * sessions are read (at most MAX_SESSIONS), never the whole haystack: the page's cost does not grow with it.
 */
import { sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { loadTimeline, threadInfo, userSide, type TimelineSession } from "@/lib/datasets/convmem/thread";
import { pairTurns } from "@/lib/datasets/convmem/pairing";
import { loadConvItem } from "./items";
import type { RetrievedRef } from "./retrieval";

export const MAX_SESSIONS = 12;

export type EvidenceTurn = {
  position: number;
  speaker: string;
  text: string;
  diaId: string | null;
  evidence: boolean;
  /** The shown methods whose retrieved context held this turn. */
  retrievedBy: string[];
};
export type EvidenceSession = { seq: number; label: string; date: string | null; turns: EvidenceTurn[] };
export type EvidenceView = {
  /** The item's evidence ids as the data set gives them (dia ids, or answer session ids). */
  evidence: string[];
  sessions: EvidenceSession[];
  /** Evidence sessions left out past MAX_SESSIONS. */
  more: number;
  /** The methods shown that retrieve dialogue (the others' memories hold notes, not turns). */
  retrievers: string[];
};

/** The timeline positions of the sessions that hold the item's evidence. */
function evidencePositions(db: Db, threadId: number, evidence: string[], locomo: boolean): number[] {
  const ids = JSON.stringify(evidence);
  const rows = locomo
    ? db.all<{ p: number }>(
        sql`SELECT DISTINCT tl.position AS p FROM cm_timeline tl JOIN cm_turns u ON u.session_id = tl.session_id
            WHERE tl.thread_id = ${threadId} AND u.dia_id IN (SELECT value FROM json_each(${ids})) ORDER BY tl.position`,
      )
    : db.all<{ p: number }>(
        sql`SELECT position AS p FROM cm_timeline WHERE thread_id = ${threadId} AND label IN (SELECT value FROM json_each(${ids})) ORDER BY position`,
      );
  return rows.map((r) => r.p);
}

/** The turn positions of `session` that a method's retrieved refs hold (whole sessions, or utterances of a pair). */
function retrievedPositions(refs: RetrievedRef[], session: TimelineSession, pairs: () => ReturnType<typeof pairTurns>): Set<number> {
  const out = new Set<number>();
  for (const r of refs) {
    if (r.kind === "session" && r.key === session.label) session.turns.forEach((t) => out.add(t.position));
    const m = r.kind === "utterance" ? /^(\d+):turn_(\d+):(user|assistant)$/.exec(r.key) : null;
    if (!m || Number(m[1]) !== session.seq) continue;
    const pair = pairs()[Number(m[2]) - 1];
    if (pair) (m[3] === "user" ? pair.userPositions : pair.assistantPositions).forEach((p) => out.add(p));
  }
  return out;
}

const refsOf = (retrieved: unknown): RetrievedRef[] =>
  Array.isArray(retrieved)
    ? (retrieved as RetrievedRef[]).filter((r) => r && typeof r.key === "string" && (r.kind === "utterance" || r.kind === "session"))
    : [];

/**
 * The evidence view of one item; `retrievedBy` gives each shown method's retrieved entries ({kind, key}) as its job
 * stored them.
 */
export function evidenceView(db: Db, datasetId: number, itemKey: string, retrievedBy: Record<string, unknown>): EvidenceView {
  const it = loadConvItem(db, datasetId, itemKey);
  const t = threadInfo(db, datasetId, it.threadKey);
  const locomo = t.speakerA !== null;
  const positions = evidencePositions(db, t.id, it.evidence, locomo);
  const methods = Object.entries(retrievedBy).map(([m, r]) => [m, refsOf(r)] as const);
  const sessions = positions
    .slice(0, MAX_SESSIONS)
    .flatMap((p) => loadTimeline(db, t.id, { offset: p, limit: 1 }))
    .map((s): EvidenceSession => {
      let paired: ReturnType<typeof pairTurns> | null = null;
      const pairs = () => (paired ??= pairTurns(s.turns, userSide(t), locomo));
      const held = methods.map(([m, refs]) => [m, retrievedPositions(refs, s, pairs)] as const);
      return {
        seq: s.seq,
        label: s.label,
        date: s.date,
        turns: s.turns.map((u) => ({
          position: u.position,
          speaker: u.speaker,
          text: u.text,
          diaId: u.diaId,
          evidence: locomo ? u.diaId !== null && it.evidence.includes(u.diaId) : u.hasAnswer === 1,
          retrievedBy: held.filter(([, ps]) => ps.has(u.position)).map(([m]) => m),
        })),
      };
    });
  return {
    evidence: it.evidence,
    sessions,
    more: Math.max(0, positions.length - MAX_SESSIONS),
    retrievers: methods.filter(([, refs]) => refs.length > 0).map(([m]) => m),
  };
}
