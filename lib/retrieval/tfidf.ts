/**
 * TF-IDF vectors over the retrieval tokenizer's terms, L2-normalised, so that cosine similarity is a
 * dot product. This is the network-free stand-in wherever a method needs vectors: KMeans over
 * requirements (H2Memory's principles), semantic scores (LD-Agent's s_sem), dense-style top-k.
 *
 *   w(t, d) = tf(t, d) · idf(t),  idf(t) = ln((1 + N) / (1 + df(t))) + 1   (smooth idf)
 *   v(d)    = w(·, d) / ‖w(·, d)‖₂
 *
 * tf is the raw count. The vocabulary is the fitted corpus's terms in order of first appearance (so a
 * fit is reproducible); terms unseen at fit time are ignored by transform.
 */
import { InvalidInputError } from "@/lib/errors";
import type { ResolvedTokenizerOptions, TokenizerOptions } from "./tokenize";
import { resolveTokenizerOptions, tokenize } from "./tokenize";
import { DocList, checkK, topK } from "./doc-list";
import { DEFAULT_K, type RetrievalDoc, type Retriever, type SearchHit, type SearchOptions } from "./types";

/** A sparse vector: ascending term indices and their values. */
export interface SparseVector {
  indices: number[];
  values: number[];
}

export interface TfidfVectorizerState {
  tokenizer: ResolvedTokenizerOptions;
  terms: string[];
  idf: number[];
}

export class TfidfVectorizer {
  readonly tokenizer: ResolvedTokenizerOptions;
  private vocab = new Map<string, number>();
  private terms: string[] = [];
  private idfs: number[] = [];
  private fitted = false;

  constructor(tokenizer: TokenizerOptions = {}) {
    this.tokenizer = resolveTokenizerOptions(tokenizer);
  }

  /** Learns the vocabulary and idf from a corpus of texts. */
  fit(texts: readonly string[]): this {
    return this.fitTokens(texts.map((t) => tokenize(t, this.tokenizer)));
  }

  /** As fit, from already tokenized documents. */
  fitTokens(docs: readonly (readonly string[])[]): this {
    const vocab = new Map<string, number>();
    const df: number[] = [];
    for (const tokens of docs) {
      const seen = new Set<string>();
      for (const t of tokens) {
        let i = vocab.get(t);
        if (i === undefined) {
          vocab.set(t, (i = df.length));
          df.push(0);
        }
        if (!seen.has(t)) {
          seen.add(t);
          df[i]++;
        }
      }
    }
    const n = docs.length;
    this.vocab = vocab;
    this.terms = [...vocab.keys()];
    this.idfs = df.map((d) => Math.log((1 + n) / (1 + d)) + 1);
    this.fitted = true;
    return this;
  }

  /** Vocabulary size (the dimension of dense vectors). */
  get dimension(): number {
    return this.terms.length;
  }

  get vocabulary(): readonly string[] {
    return this.terms;
  }

  /** The smooth idf of a fitted term, undefined for a term outside the vocabulary. */
  idf(term: string): number | undefined {
    const i = this.vocab.get(term);
    return i === undefined ? undefined : this.idfs[i];
  }

  /** The fitted state as plain JSON, to store with what was built from it (e.g. principle centres). */
  toJSON(): TfidfVectorizerState {
    if (!this.fitted) throw new InvalidInputError("tfidf: cannot save a vectorizer before fit");
    return { tokenizer: this.tokenizer, terms: [...this.terms], idf: [...this.idfs] };
  }

  /** A vectorizer restored from toJSON(), transforming exactly as the saved one did. */
  static fromJSON(state: TfidfVectorizerState): TfidfVectorizer {
    if (!Array.isArray(state?.terms) || !Array.isArray(state.idf) || state.terms.length !== state.idf.length) {
      throw new InvalidInputError("tfidf state: terms and idf must be arrays of the same length");
    }
    const v = new TfidfVectorizer(state.tokenizer);
    v.terms = [...state.terms];
    v.idfs = [...state.idf];
    v.vocab = new Map(v.terms.map((t, i) => [t, i]));
    if (v.vocab.size !== v.terms.length) throw new InvalidInputError("tfidf state: terms must be unique");
    v.fitted = true;
    return v;
  }

  transform(text: string): SparseVector {
    return this.transformTokens(tokenize(text, this.tokenizer));
  }

  /** The L2-normalised TF-IDF vector of a token list (all zeros when no term is in the vocabulary). */
  transformTokens(tokens: readonly string[]): SparseVector {
    if (!this.fitted) throw new InvalidInputError("tfidf: transform before fit");
    const counts = new Map<number, number>();
    for (const t of tokens) {
      const i = this.vocab.get(t);
      if (i !== undefined) counts.set(i, (counts.get(i) ?? 0) + 1);
    }
    const indices = [...counts.keys()].sort((a, b) => a - b);
    const values = indices.map((i) => counts.get(i)! * this.idfs[i]);
    let norm = 0;
    for (const v of values) norm += v * v;
    norm = Math.sqrt(norm);
    if (norm > 0) for (let j = 0; j < values.length; j++) values[j] /= norm;
    return { indices, values };
  }

  /** A dense vector of length `dimension` (for KMeans and other vector code). */
  transformDense(text: string): number[] {
    return toDense(this.transform(text), this.dimension);
  }
}

export function toDense(v: SparseVector, dimension: number): number[] {
  const out = new Array<number>(dimension).fill(0);
  for (let j = 0; j < v.indices.length; j++) out[v.indices[j]] = v.values[j];
  return out;
}

/** Dot product of two sparse vectors; the cosine when both are L2-normalised (as transform's are). */
export function sparseDot(a: SparseVector, b: SparseVector): number {
  let i = 0;
  let j = 0;
  let s = 0;
  while (i < a.indices.length && j < b.indices.length) {
    const x = a.indices[i];
    const y = b.indices[j];
    if (x === y) s += a.values[i++] * b.values[j++];
    else if (x < y) i++;
    else j++;
  }
  return s;
}

export interface TfidfRetrieverOptions {
  tokenizer?: TokenizerOptions;
}

/**
 * Cosine top-k over TF-IDF vectors. idf is refitted over all documents added so far when a search
 * follows an add (cost: one pass over the stored tokens), so scores always reflect the whole memory.
 */
export class TfidfRetriever<T = unknown> implements Retriever<T> {
  readonly settings: { kind: "tfidf"; tokenizer: ResolvedTokenizerOptions };
  private readonly list = new DocList<T>();
  private readonly tokens: string[][] = [];
  private vectorizer: TfidfVectorizer | null = null;
  /** Term index → (document, weight): cosine needs only the documents sharing a query term. */
  private postings: { doc: number; w: number }[][] = [];

  constructor(opts: TfidfRetrieverOptions = {}) {
    this.settings = { kind: "tfidf", tokenizer: resolveTokenizerOptions(opts.tokenizer) };
  }

  get size(): number {
    return this.list.length;
  }

  async add(docs: RetrievalDoc<T>[]): Promise<void> {
    this.addSync(docs);
  }

  addSync(docs: RetrievalDoc<T>[]): void {
    const checked = this.list.check(docs);
    const tokens = docs.map((d) => tokenize(d.text, this.settings.tokenizer));
    this.list.push(docs, checked);
    this.tokens.push(...tokens);
    this.vectorizer = null;
  }

  /** The vectorizer fitted on every document added so far. */
  fitted(): TfidfVectorizer {
    if (!this.vectorizer) {
      this.vectorizer = new TfidfVectorizer(this.settings.tokenizer).fitTokens(this.tokens);
      this.postings = Array.from({ length: this.vectorizer.dimension }, () => []);
      this.tokens.forEach((t, doc) => {
        const v = this.vectorizer!.transformTokens(t);
        for (let j = 0; j < v.indices.length; j++) this.postings[v.indices[j]].push({ doc, w: v.values[j] });
      });
    }
    return this.vectorizer;
  }

  async search(query: string, k = DEFAULT_K, options: SearchOptions<T> = {}): Promise<SearchHit<T>[]> {
    return this.searchSync(query, k, options);
  }

  searchSync(query: string, k = DEFAULT_K, options: SearchOptions<T> = {}): SearchHit<T>[] {
    checkK(k);
    const q = this.fitted().transform(query);
    const scores = new Float64Array(this.list.length);
    for (let j = 0; j < q.indices.length; j++) {
      const qv = q.values[j];
      for (const { doc, w } of this.postings[q.indices[j]]) scores[doc] += qv * w;
    }
    const docs = this.list.docs;
    // As BM25: score-0 documents fill the remaining places in insertion order (always min(k, size) hits).
    return topK(docs, scores, k, (i) => !options.filter || options.filter(docs[i]));
  }
}
