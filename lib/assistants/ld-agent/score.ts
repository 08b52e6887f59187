/**
 * LD-Agent's memory retrieval score and short-term cache rule (Li et al., "Hello Again!", §2.2),
 * the parts that need no model.
 *
 *   s_top     = ½ (|Vq ∩ Vk| / |Vq| + |Vq ∩ Vk| / |Vk|)      topic overlap of the noun sets (nouns.ts)
 *   λ_t       = e^(−t/τ)                                     time decay, t = age of the memory
 *   s_overall = λ_t · (s_sem + s_top)
 * Only memories with s_sem > γ are candidates; when none is left the caller answers "no relevant
 * memory". The short-term cache (the current session's utterances) is summarised into a new event
 * memory and emptied when a new utterance comes more than β after the last cached one.
 *
 * Defaults, with where they come from (the paper gives the formulas but no values):
 *   τ = 10^7 s (≈ 115.7 days). The public code weighs by exp(−1e−7 · Δt) with Δt in seconds.
 *   β = 3,600 s (one hour). The public code closes a session after a one-hour gap.
 *   γ depends on what s_sem is, so it is set per retriever:
 *     dense 0.25  the public code keeps distances below 1.5 in a vector store whose default metric is
 *                 squared L2 over unit-length MiniLM embeddings, d² = 2 − 2·cos, i.e. cos > 0.25. Other
 *                 encoders spread cosines differently (bge-zh scores unrelated text higher), so this
 *                 is a starting point to calibrate, recorded with the run.
 *     tfidf 0.05  cosine of TF-IDF vectors is 0 for texts with no term in common and about
 *                 m/√(|q|·|d|) for m shared terms of similar weight: one shared content word between
 *                 an 8-term query and a 20-term event summary gives ≈ 0.08, so 0.05 lets "one real
 *                 topic word in common" through and stops texts that share only frequent words.
 *     bm25  0.03  over BM25 normalised by its maximum Σ idf·(k1+1) (bm25.ts, normalize: true): one
 *                 matching term of 8 at tf 1 in an average-length summary scores ≈ 1/(2.5·8) = 0.05
 *                 relative to that maximum, lowered to 0.03 because idf varies between terms.
 * k: LD-Agent's code returns the single best memory; Mem-PAL runs every baseline with its own k = 3.
 * Time: timestamps in ms since the epoch; τ and β in seconds (the public code's unit).
 */
import { InvalidInputError } from "@/lib/errors";
import { DEFAULT_K } from "@/lib/retrieval/types";

export const LD_AGENT_TAU_SECONDS = 1e7;
export const LD_AGENT_BETA_SECONDS = 3600;
export const LD_AGENT_GAMMA = { dense: 0.25, tfidf: 0.05, bm25: 0.03 } as const;

/** s_top; 0 when either set is empty (nothing to overlap). */
export function topicOverlap(query: ReadonlySet<string>, key: ReadonlySet<string>): number {
  if (query.size === 0 || key.size === 0) return 0;
  let both = 0;
  for (const n of query) if (key.has(n)) both++;
  return 0.5 * (both / query.size + both / key.size);
}

/** λ_t = e^(−t/τ), t and τ in seconds; a memory stamped after the query counts as age 0. */
export function timeDecay(elapsedSeconds: number, tauSeconds = LD_AGENT_TAU_SECONDS): number {
  if (!(tauSeconds > 0)) throw new InvalidInputError(`ld-agent: τ must be positive, got ${tauSeconds}`);
  return Math.exp(-Math.max(0, elapsedSeconds) / tauSeconds);
}

export interface MemoryCandidate<T = unknown> {
  id: string;
  /** s_sem between the query and this memory (cosine, or normalised BM25), from the retriever. */
  semantic: number;
  /** The memory's topic nouns V_k. */
  nouns: ReadonlySet<string>;
  /** When the memory's event ended (ms). */
  time: number;
  item?: T;
}

export interface ScoredMemory<T = unknown> {
  id: string;
  score: number;
  semantic: number;
  topic: number;
  decay: number;
  item?: T;
}

export interface ScoreOptions {
  /** The semantic threshold; LD_AGENT_GAMMA[retriever kind]. */
  gamma: number;
  tauSeconds?: number;
  /** Default 3 (Mem-PAL's k). */
  k?: number;
}

/**
 * The k memories with the highest s_overall among those with s_sem > γ, best first (ties keep the
 * candidates' order). Empty means "no relevant memory".
 */
export function rankMemories<T>(
  query: { nouns: ReadonlySet<string>; time: number },
  candidates: readonly MemoryCandidate<T>[],
  options: ScoreOptions,
): ScoredMemory<T>[] {
  const k = options.k ?? DEFAULT_K;
  const scored: ScoredMemory<T>[] = [];
  for (const c of candidates) {
    if (!(c.semantic > options.gamma)) continue;
    const topic = topicOverlap(query.nouns, c.nouns);
    const decay = timeDecay((query.time - c.time) / 1000, options.tauSeconds);
    scored.push({ id: c.id, score: decay * (c.semantic + topic), semantic: c.semantic, topic, decay, item: c.item });
  }
  // Array.prototype.sort is stable: equal scores keep the candidates' order.
  return scored.sort((a, b) => b.score - a.score).slice(0, k);
}

export interface Utterance {
  /** ms since the epoch. */
  time: number;
  text: string;
}

/**
 * The short-term cache after a new utterance: when it comes more than β after the last cached one,
 * the old cache is returned as `flushed` (to be summarised into an event memory stamped with its last
 * time) and the cache restarts with the new utterance; otherwise the utterance is appended.
 */
export function pushUtterance(
  cache: readonly Utterance[],
  utterance: Utterance,
  betaSeconds = LD_AGENT_BETA_SECONDS,
): { cache: Utterance[]; flushed: Utterance[] | null } {
  const last = cache[cache.length - 1];
  if (last && (utterance.time - last.time) / 1000 > betaSeconds) return { cache: [utterance], flushed: [...cache] };
  return { cache: [...cache, utterance], flushed: null };
}
