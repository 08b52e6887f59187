/**
 * Dense retrieval: cosine top-k over vectors from an injected `embed` function (the model client's
 * `embedding` role, which caches vectors in SQLite per (model, text)). Mem-PAL's setting: a sentence
 * encoder, cosine similarity, top k = 3. This module never calls a model itself.
 */
import { InvalidInputError } from "@/lib/errors";
import { DocList, checkK, topK } from "./doc-list";
import { DEFAULT_K, type EmbedFn, type RetrievalDoc, type Retriever, type SearchHit, type SearchOptions } from "./types";
import { cosine, cosineWithNorms, normSq } from "@/lib/llm/vectors";

/**
 * Vectors already checked finite: the client hands out its cached vectors as shared arrays that nobody
 * writes (lib/llm/cache.ts), so a retrieval over the same logs does not check each one again.
 */
const finite = new WeakSet<readonly number[]>();

export { cosine };

export interface DenseRetrieverOptions {
  embed: EmbedFn;
  /** The embedding model's name, recorded in the settings (the embed function cannot tell it). */
  model: string;
}

export class DenseRetriever<T = unknown> implements Retriever<T> {
  readonly settings: { kind: "dense"; model: string };
  private readonly embed: EmbedFn;
  private readonly list = new DocList<T>();
  private readonly vectors: number[][] = [];
  private dimension = -1;

  constructor(opts: DenseRetrieverOptions) {
    if (typeof opts?.embed !== "function") throw new InvalidInputError("dense retriever: opts.embed (an embedding function) is required");
    if (!opts.model) throw new InvalidInputError("dense retriever: opts.model (the embedding model's name) is required");
    this.embed = opts.embed;
    this.settings = { kind: "dense", model: opts.model };
  }

  get size(): number {
    return this.list.length;
  }

  /** Embeds the batch in one call; checks the vectors before storing any. */
  async add(docs: RetrievalDoc<T>[]): Promise<void> {
    const checked = this.list.check(docs);
    if (docs.length === 0) return;
    const before = this.list.length;
    const vectors = await this.embedChecked(
      docs.map((d) => d.text),
      (i) => `docs[${i}] (id ${docs[i].id})`,
    );
    // A concurrent add may have taken an id while we awaited the embeddings (only then is it checked again).
    if (this.list.length !== before) this.list.check(docs);
    this.list.push(docs, this.list.length === before ? checked : undefined);
    this.vectors.push(...vectors);
  }

  async search(query: string, k = DEFAULT_K, options: SearchOptions<T> = {}): Promise<SearchHit<T>[]> {
    checkK(k);
    if (this.list.length === 0 || k === 0) return [];
    const [q] = await this.embedChecked([query], () => "query");
    const nq = normSq(q);
    const vectors = this.vectors;
    const scores = new Array<number>(vectors.length);
    for (let i = 0; i < vectors.length; i++) scores[i] = cosineWithNorms(q, nq, vectors[i], normSq(vectors[i]));
    const docs = this.list.docs;
    return topK(docs, scores, k, (i) => !options.filter || options.filter(docs[i]));
  }

  private async embedChecked(texts: string[], what: (i: number) => string): Promise<number[][]> {
    const vectors = await this.embed(texts);
    if (!Array.isArray(vectors) || vectors.length !== texts.length) {
      throw new InvalidInputError(
        `embedding ${this.settings.model}: expected ${texts.length} vectors, got ${Array.isArray(vectors) ? vectors.length : typeof vectors}`,
      );
    }
    let dim = this.dimension;
    vectors.forEach((v, i) => {
      if (!Array.isArray(v) || v.length === 0 || (!finite.has(v) && !v.every(Number.isFinite))) {
        throw new InvalidInputError(`embedding ${this.settings.model}: ${what(i)}: not a vector of finite numbers`);
      }
      finite.add(v);
      if (dim === -1) dim = v.length;
      if (v.length !== dim)
        throw new InvalidInputError(`embedding ${this.settings.model}: ${what(i)}: dimension ${v.length}, expected ${dim}`);
    });
    this.dimension = dim;
    return vectors;
  }
}
