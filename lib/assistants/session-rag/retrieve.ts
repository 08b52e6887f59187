/**
 * Session-level RAG: the top-k whole dialogues of earlier sessions. No model call to build.
 */
import type { BaselineEntry, BaselineSession, MakeIndex } from "../baselines/types";
import { formatTurns, type Lang } from "../baselines/history-text";

export type SessionDoc = { seq: number; sampleKey: string; date: string; text: string };

export function sessionEntries(lang: Lang, s: BaselineSession): BaselineEntry[] {
  if (!s.turns.length) return [];
  const doc: SessionDoc = { seq: s.seq, sampleKey: s.sampleKey, date: s.date, text: formatTurns(lang, s.turns) };
  return [{ kind: "session", key: s.sampleKey, content: doc, visibleFrom: s.seq + 1, callKeys: [] }];
}

export async function retrieveSessions(makeIndex: MakeIndex, k: number, query: string, sessions: readonly SessionDoc[]) {
  if (!sessions.length) return [];
  const index = makeIndex<SessionDoc>();
  await index.add(sessions.map((s) => ({ id: s.sampleKey, text: s.text, meta: s })));
  return (await index.search(query, k)).map((h) => h.doc.meta!);
}
