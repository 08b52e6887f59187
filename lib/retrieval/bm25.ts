/**
 * Okapi BM25 over the retrieval tokenizer's terms.
 *
 *   score(q, d) = Σ_{t ∈ q} idf(t) · tf(t,d)·(k1+1) / (tf(t,d) + k1·(1 − b + b·|d|/avgdl))
 *   idf(t)      = ln(1 + (N − n(t) + 0.5) / (n(t) + 0.5))
 *
 * with k1 = 1.5, b = 0.75 by default. The idf is Lucene's "+1" form by default: never negative, so a
 * term found in most documents of a tiny memory still counts a little instead of pushing a score below
 * zero. `idf: "okapi"` is rank_bm25's BM25Okapi instead (HiCUPID's public retrieval): ln(N − n + 0.5) −
 * ln(n + 0.5), and every term whose idf is negative gets ε · (mean idf over the vocabulary), ε = 0.25.
 * A term repeated in the query counts once per occurrence. N, n(t) and avgdl are those of all
 * documents added so far. `split: "whitespace"` takes Python's `str.split()` tokens (case and punctuation
 * kept) instead of the retrieval tokenizer's terms, as HiCUPID's public BM25 does.
 */
import type { ResolvedTokenizerOptions, TokenizerOptions } from "./tokenize";
import { resolveTokenizerOptions, tokenize } from "./tokenize";
import { DocList, checkK, topK } from "./doc-list";
import { DEFAULT_K, type RetrievalDoc, type Retriever, type SearchHit, type SearchOptions } from "./types";

export interface Bm25Params {
  k1: number;
  b: number;
  /** "plus-one" (default): ln(1 + (N − n + 0.5)/(n + 0.5)); "okapi": rank_bm25's BM25Okapi idf with ε = 0.25. */
  idf: "plus-one" | "okapi";
}

export const BM25_DEFAULTS: Bm25Params = { k1: 1.5, b: 0.75, idf: "plus-one" };

/** rank_bm25's BM25Okapi default ε: negative idfs become ε × the mean idf. */
export const OKAPI_EPSILON = 0.25;

/** Python's `str.isspace()` characters (not JavaScript's `\s`, which adds U+FEFF and lacks U+001C..U+001F, U+0085). */
const PY_WHITESPACE = /[\t\n\v\f\r\x1c-\x1f \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+/;

/** Python's `text.split()`: runs of whitespace separate tokens, none empty; case and punctuation kept. */
export function whitespaceTokens(text: string): string[] {
  return text.split(PY_WHITESPACE).filter((t) => t.length > 0);
}

/** An inverted index of token lists; documents are numbered 0, 1, ... in the order added. */
export class Bm25Index {
  readonly k1: number;
  readonly b: number;
  readonly idfKind: Bm25Params["idf"];
  private readonly postings = new Map<string, { doc: number; tf: number }[]>();
  private readonly lengths: number[] = [];
  private totalLength = 0;
  /** Okapi idfs depend on the whole vocabulary (the mean): recomputed after documents are added. */
  private okapi: Map<string, number> | null = null;

  constructor(params: Partial<Bm25Params> = {}) {
    this.k1 = params.k1 ?? BM25_DEFAULTS.k1;
    this.b = params.b ?? BM25_DEFAULTS.b;
    this.idfKind = params.idf ?? BM25_DEFAULTS.idf;
  }

  get size(): number {
    return this.lengths.length;
  }

  /** Adds one document's terms; returns its number. */
  add(tokens: readonly string[]): number {
    const doc = this.lengths.length;
    const tf = new Map<string, number>();
    for (const t of tokens) tf.set(t, (tf.get(t) ?? 0) + 1);
    for (const [term, n] of tf) {
      let list = this.postings.get(term);
      if (!list) this.postings.set(term, (list = []));
      list.push({ doc, tf: n });
    }
    this.lengths.push(tokens.length);
    this.totalLength += tokens.length;
    this.okapi = null;
    return doc;
  }

  /** rank_bm25's BM25Okapi idf table: ln(N − n + 0.5) − ln(n + 0.5), negatives replaced by ε × the mean. */
  private okapiIdf(): Map<string, number> {
    if (this.okapi) return this.okapi;
    const m = new Map<string, number>();
    const negative: string[] = [];
    let sum = 0;
    for (const [term, list] of this.postings) {
      const n = list.length;
      const idf = Math.log(this.size - n + 0.5) - Math.log(n + 0.5);
      m.set(term, idf);
      sum += idf;
      if (idf < 0) negative.push(term);
    }
    const eps = OKAPI_EPSILON * (m.size ? sum / m.size : 0);
    for (const term of negative) m.set(term, eps);
    return (this.okapi = m);
  }

  /** Number of documents containing the term. */
  documentFrequency(term: string): number {
    return this.postings.get(term)?.length ?? 0;
  }

  idf(term: string): number {
    // rank_bm25 gives a term outside the vocabulary 0.
    if (this.idfKind === "okapi") return this.okapiIdf().get(term) ?? 0;
    const n = this.documentFrequency(term);
    return Math.log(1 + (this.size - n + 0.5) / (n + 0.5));
  }

  /** BM25 scores of every document for the query terms (0 where no term matches). */
  scores(queryTokens: readonly string[]): Float64Array {
    const out = new Float64Array(this.size);
    if (this.size === 0) return out;
    const avgdl = this.totalLength / this.size || 1;
    for (const term of queryTokens) {
      const list = this.postings.get(term);
      if (!list) continue;
      const idf = this.idf(term);
      for (const { doc, tf } of list) {
        const norm = this.k1 * (1 - this.b + (this.b * this.lengths[doc]) / avgdl);
        out[doc] += (idf * tf * (this.k1 + 1)) / (tf + norm);
      }
    }
    return out;
  }

  /**
   * The supremum of any document's score for these query terms: Σ idf(t)·(k1+1), the limit of each
   * term's saturation as tf grows. Dividing by it gives a score in [0, 1) that means the same across
   * queries (used where a method thresholds similarity, e.g. LD-Agent's γ).
   */
  maxScore(queryTokens: readonly string[]): number {
    let s = 0;
    // Terms no document has count too (with the highest idf): the score tells how much of the
    // whole query a document covers.
    for (const term of queryTokens) s += this.idf(term) * (this.k1 + 1);
    return s;
  }
}

export interface Bm25RetrieverOptions extends Partial<Bm25Params> {
  tokenizer?: TokenizerOptions;
  /** "terms" (default): the retrieval tokenizer; "whitespace": Python's str.split() tokens (HiCUPID's public BM25). */
  split?: "terms" | "whitespace";
  /** Report score / maxScore (in [0, 1)) instead of the raw BM25 score; ranking is the same. Default false. */
  normalize?: boolean;
}

export class Bm25Retriever<T = unknown> implements Retriever<T> {
  readonly settings: {
    kind: "bm25";
    k1: number;
    b: number;
    normalize: boolean;
    tokenizer: ResolvedTokenizerOptions;
    /** Only when not the default (see RetrieverSettings). */
    idf?: "okapi";
    split?: "whitespace";
  };
  private readonly index: Bm25Index;
  private readonly list = new DocList<T>();

  constructor(opts: Bm25RetrieverOptions = {}) {
    this.index = new Bm25Index(opts);
    this.settings = {
      kind: "bm25",
      k1: this.index.k1,
      b: this.index.b,
      normalize: opts.normalize ?? false,
      tokenizer: resolveTokenizerOptions(opts.tokenizer),
      ...(this.index.idfKind === "okapi" ? { idf: "okapi" as const } : {}),
      ...(opts.split === "whitespace" ? { split: "whitespace" as const } : {}),
    };
  }

  get size(): number {
    return this.list.length;
  }

  private tokens(text: string): string[] {
    return this.settings.split === "whitespace" ? whitespaceTokens(text) : tokenize(text, this.settings.tokenizer);
  }

  async add(docs: RetrievalDoc<T>[]): Promise<void> {
    this.addSync(docs);
  }

  addSync(docs: RetrievalDoc<T>[]): void {
    const checked = this.list.check(docs);
    const tokens = docs.map((d) => this.tokens(d.text));
    this.list.push(docs, checked);
    for (const t of tokens) this.index.add(t);
  }

  async search(query: string, k = DEFAULT_K, options: SearchOptions<T> = {}): Promise<SearchHit<T>[]> {
    return this.searchSync(query, k, options);
  }

  searchSync(query: string, k = DEFAULT_K, options: SearchOptions<T> = {}): SearchHit<T>[] {
    checkK(k);
    const q = this.tokens(query);
    const scores = this.index.scores(q);
    if (this.settings.normalize) {
      const max = this.index.maxScore(q);
      if (max > 0) for (let i = 0; i < scores.length; i++) scores[i] /= max;
    }
    const docs = this.list.docs;
    // Documents sharing no term score 0 and fill the remaining places in insertion order, so k hits come
    // back whenever k documents pass the filter (Mem-PAL always gives its methods the top 3).
    return topK(docs, scores, k, (i) => !options.filter || options.filter(docs[i]));
  }
}
