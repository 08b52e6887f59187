/**
 * Mem-PAL's log handling for the baselines (Appendix C): every log of the current session, plus
 * the top-k logs retrieved from all earlier sessions with the same retriever and k as the method.
 * The index holds earlier sessions' logs only, so nothing of the current or later sessions shapes
 * the ranking (not even BM25's document frequencies).
 */
import type { MakeIndex } from "./types";
import type { LogItem } from "./history-text";

export type HistoryLog = LogItem & { seq: number; position: number };

export type LogContext = { current: LogItem[]; retrieved: HistoryLog[] };

export async function sharedLogContext(
  makeIndex: MakeIndex,
  k: number,
  query: string,
  currentSeq: number,
  history: readonly HistoryLog[],
  current: readonly LogItem[],
): Promise<LogContext> {
  const earlier = history.filter((l) => l.seq < currentSeq);
  if (!earlier.length || k <= 0) return { current: [...current], retrieved: [] };
  const index = makeIndex<HistoryLog>();
  await index.add(earlier.map((l) => ({ id: `${l.seq}:${l.position}`, text: l.content, meta: l })));
  const hits = await index.search(query, k);
  return { current: [...current], retrieved: hits.map((h) => h.doc.meta!) };
}
