/**
 * The retriever kinds, one typed list that settings forms, run records and createRetriever read.
 * A new kind is one module implementing Retriever plus one entry here.
 */
import { InvalidInputError } from "@/lib/errors";
import { Bm25Retriever, type Bm25RetrieverOptions } from "./bm25";
import { DenseRetriever, type DenseRetrieverOptions } from "./dense";
import { TfidfRetriever, type TfidfRetrieverOptions } from "./tfidf";
import type { EmbedFn, Retriever, RetrieverSettings } from "./types";

interface RetrieverDefinition<O> {
  label: string;
  description: string;
  /** True when the kind calls the model client's `embedding` role (and so needs an endpoint). */
  needsEmbedding: boolean;
  create<T>(opts: O): Retriever<T>;
}

export const RETRIEVERS = {
  bm25: {
    label: "BM25",
    description: "Okapi BM25 (k1 1.5, b 0.75) over jieba / English terms; no network",
    needsEmbedding: false,
    create: <T>(opts: Bm25RetrieverOptions) => new Bm25Retriever<T>(opts),
  } satisfies RetrieverDefinition<Bm25RetrieverOptions>,
  tfidf: {
    label: "TF-IDF",
    description: "cosine over L2-normalised TF-IDF vectors of the same terms; no network",
    needsEmbedding: false,
    create: <T>(opts: TfidfRetrieverOptions) => new TfidfRetriever<T>(opts),
  } satisfies RetrieverDefinition<TfidfRetrieverOptions>,
  dense: {
    label: "Dense (embedding model)",
    description: "cosine over vectors from the embedding role (as Mem-PAL: a sentence encoder, top 3)",
    needsEmbedding: true,
    create: <T>(opts: DenseRetrieverOptions) => new DenseRetriever<T>(opts),
  } satisfies RetrieverDefinition<DenseRetrieverOptions>,
} as const;

export type RetrieverKind = keyof typeof RETRIEVERS;
export type RetrieverOptions<K extends RetrieverKind> = Parameters<(typeof RETRIEVERS)[K]["create"]>[0];

export const RETRIEVER_KINDS = Object.keys(RETRIEVERS) as RetrieverKind[];

/** The network-free default, so every method runs with no embedding endpoint. */
export const DEFAULT_RETRIEVER_KIND: RetrieverKind = "bm25";

export function isRetrieverKind(s: string): s is RetrieverKind {
  return Object.prototype.hasOwnProperty.call(RETRIEVERS, s);
}

/** A retriever of the given kind (dense needs opts.embed and opts.model). */
export function createRetriever<T = unknown, K extends RetrieverKind = RetrieverKind>(kind: K, opts: RetrieverOptions<K>): Retriever<T> {
  if (!isRetrieverKind(kind)) {
    throw new InvalidInputError(`retriever: unknown kind "${String(kind)}" (one of ${RETRIEVER_KINDS.join(", ")})`);
  }
  const def = RETRIEVERS[kind] as RetrieverDefinition<RetrieverOptions<K>>;
  return def.create<T>(opts);
}

/** Rebuilds the retriever a recorded setting describes (a resumed run uses the same retrieval). */
export function retrieverFromSettings<T = unknown>(settings: RetrieverSettings, deps: { embed?: EmbedFn } = {}): Retriever<T> {
  switch (settings.kind) {
    case "bm25":
      return createRetriever<T, "bm25">("bm25", settings);
    case "tfidf":
      return createRetriever<T, "tfidf">("tfidf", settings);
    case "dense":
      if (!deps.embed) throw new InvalidInputError(`retriever: the dense setting (${settings.model}) needs an embed function`);
      return createRetriever<T, "dense">("dense", { embed: deps.embed, model: settings.model });
  }
}
