/** Retrieval: one tokenizer, BM25, TF-IDF and dense cosine top-k behind one Retriever interface. */
export * from "./types";
export * from "./tokenize";
export * from "./bm25";
export * from "./tfidf";
export * from "./dense";
export * from "./registry";
