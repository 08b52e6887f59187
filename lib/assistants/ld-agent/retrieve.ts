/**
 * LD-Agent's event retrieval: s = e^(−t/τ)·(s_sem + s_top) over the events visible in the session,
 * keeping only events with s_sem > γ; with none left the memory is "no relevant memory".
 * s_sem comes from the shared retriever (its score scale decides γ, see defaults below); s_top is the
 * noun overlap between query and event.
 */
import type { MakeIndex } from "../baseline-types";
import type { Lang } from "../history-text";
import type { LdEvent, NounFn } from "./engine";

/** τ in ms: e^(−t/τ) with the reference implementation's decay of 1e-7 per second (≈ 116 days). */
export const DEFAULT_TAU_MS = 1e7 * 1000;

/**
 * γ per retriever. Dense: cosine > 0.25 (the reference's squared-L2 distance cut of 1.5 between unit
 * vectors, 2 − 2·cos < 1.5). BM25 / TF-IDF: the lexical score must be positive (some shared term),
 * since their raw scores have no fixed scale.
 */
export const DEFAULT_GAMMA: Record<string, number> = { dense: 0.25, bm25: 0, tfidf: 0 };

export function topicOverlap(vq: readonly string[], vk: readonly string[]): number {
  const q = new Set(vq);
  const k = new Set(vk);
  if (!q.size || !k.size) return 0;
  let both = 0;
  for (const n of q) if (k.has(n)) both++;
  return 0.5 * (both / q.size + both / k.size);
}

export type ScoredEvent = { event: LdEvent; sem: number; top: number; decay: number; score: number };

export async function retrieveEvents(
  makeIndex: MakeIndex,
  nouns: NounFn,
  lang: Lang,
  query: string,
  at: number,
  events: readonly LdEvent[],
  opts: { k: number; gamma: number; tauMs?: number },
): Promise<ScoredEvent[]> {
  if (!events.length) return [];
  const index = makeIndex<LdEvent>();
  await index.add(events.map((e) => ({ id: e.key, text: e.summary, meta: e })));
  const vq = nouns(query, lang);
  const tau = opts.tauMs ?? DEFAULT_TAU_MS;
  const hits = await index.search(query, events.length);
  return hits
    .filter((h) => h.score > opts.gamma)
    .map((h) => {
      const e = h.doc.meta!;
      const top = topicOverlap(vq, e.nouns);
      const decay = Math.exp(-Math.max(0, at - e.at) / tau);
      return { event: e, sem: h.score, top, decay, score: decay * (h.score + top) };
    })
    .sort((a, b) => b.score - a.score)
    .slice(0, opts.k);
}
