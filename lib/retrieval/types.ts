/**
 * The retriever shape every memory method uses. Implementations (bm25, tfidf, dense) live beside
 * this file and are made with `createRetriever(kind, opts)`; methods receive a factory through
 * their context (lib/assistants/types.ts) and never construct one themselves, so tests can inject
 * any implementation and the run records which kind was used.
 */
import type { ModelClient } from "@/lib/llm/client";

export type RetrieverKind = "bm25" | "tfidf" | "dense";
export const RETRIEVER_KINDS: readonly RetrieverKind[] = ["bm25", "tfidf", "dense"];

export type RetrievalDoc = { id: string; text: string };
export type RetrievalHit = { id: string; score: number };

export interface Retriever {
  /** Adds documents to the index (may be called more than once). */
  index(docs: RetrievalDoc[]): Promise<void> | void;
  /** The k best documents for a query, best first. */
  search(query: string, k: number): Promise<RetrievalHit[]> | RetrievalHit[];
}

export type RetrieverOptions = {
  /** Tokenisation language (jieba for zh). */
  language: "zh" | "en";
  /** The model client, for dense retrieval's embeddings (role "embedding"). */
  llm?: ModelClient;
  /** Ledger purpose for embedding calls. */
  purpose?: string;
};

export type CreateRetriever = (kind: RetrieverKind, opts: RetrieverOptions) => Retriever;
