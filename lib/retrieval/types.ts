/**
 * The retrieval interface every memory method uses: documents (memory entries) are added with a
 * stable id, a query returns the k best with their scores. Lexical retrievers (BM25, TF-IDF) need no
 * network; the dense one embeds through an injected function (the model client's `embedding` role).
 */
import type { ResolvedTokenizerOptions } from "./tokenize";

/** Mem-PAL retrieves the top k = 3 entries each time (for H2Memory and every baseline alike). */
export const DEFAULT_K = 3;

export interface RetrievalDoc<T = unknown> {
  /** Unique within one retriever. */
  id: string;
  /** The text that is matched (a situation, a topic outline's requirement, a summary ...). */
  text: string;
  /** Anything the caller wants back with a hit (session index, timestamp, the memory row ...). */
  meta?: T;
}

export interface SearchHit<T = unknown> {
  id: string;
  /** Higher is better; its scale depends on the retriever (see RetrieverSettings). */
  score: number;
  doc: RetrievalDoc<T>;
}

export interface SearchOptions<T = unknown> {
  /** Only documents for which this returns true are ranked (e.g. the situations of one session). */
  filter?: (doc: RetrievalDoc<T>) => boolean;
}

/** Embeds texts, one vector per text, in order. The model client provides it (with its vector cache). */
export type EmbedFn = (texts: string[]) => Promise<number[][]>;

/**
 * What a retriever is, recorded with everything built from it (memories, runs), so a result can be
 * traced to the exact retrieval setting and a retriever can be rebuilt from the record.
 */
export type RetrieverSettings =
  | {
      kind: "bm25";
      k1: number;
      b: number;
      normalize: boolean;
      tokenizer: ResolvedTokenizerOptions;
      /** Recorded only when not the default ("plus-one" idf, the tokenizer's terms), so older records stay equal. */
      idf?: "okapi";
      split?: "whitespace";
    }
  | { kind: "tfidf"; tokenizer: ResolvedTokenizerOptions }
  | { kind: "dense"; model: string };

export interface Retriever<T = unknown> {
  readonly settings: RetrieverSettings;
  /** Number of documents added. */
  readonly size: number;
  /** Adds documents; a duplicate id (in the batch or already added) is refused and nothing is added. */
  add(docs: RetrievalDoc<T>[]): Promise<void>;
  /**
   * The k best documents, best first; equal scores keep insertion order. Every retriever returns
   * min(k, documents passing the filter) hits: for the lexical ones, documents sharing no term with
   * the query score 0 and fill the last places in insertion order.
   */
  search(query: string, k?: number, options?: SearchOptions<T>): Promise<SearchHit<T>[]>;
}
