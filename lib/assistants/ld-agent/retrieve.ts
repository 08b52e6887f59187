/**
 * LD-Agent's event retrieval over the events visible in a session: s_sem from the shared retriever,
 * s_top from the noun sets, ranked by score.ts (s = e^(−t/τ)(s_sem + s_top), only s_sem > γ).
 * An empty result is "no relevant memory".
 */
import type { MakeIndex } from "../baselines/types";
import type { LdEvent } from "./engine";
import { rankMemories } from "./score";

export type ScoredEvent = { event: LdEvent; sem: number; top: number; decay: number; score: number };

export async function retrieveEvents(
  makeIndex: MakeIndex,
  nouns: (text: string) => string[],
  query: string,
  at: number,
  events: readonly LdEvent[],
  opts: { k: number; gamma: number; tauSeconds?: number },
): Promise<ScoredEvent[]> {
  if (!events.length) return [];
  const index = makeIndex<LdEvent>();
  await index.add(events.map((e) => ({ id: e.key, text: e.summary, meta: e })));
  const sem = new Map((await index.search(query, events.length)).map((h) => [h.id, h.score]));
  const ranked = rankMemories(
    { nouns: new Set(nouns(query)), time: at },
    events.map((e) => ({ id: e.key, semantic: sem.get(e.key) ?? 0, nouns: new Set(e.nouns), time: e.at, item: e })),
    { gamma: opts.gamma, tauSeconds: opts.tauSeconds, k: opts.k },
  );
  return ranked.map((r) => ({ event: r.item!, sem: r.semantic, top: r.topic, decay: r.decay, score: r.score }));
}
