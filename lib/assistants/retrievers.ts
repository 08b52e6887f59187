/**
 * The retriever factory memory methods get through their context: the retrieval module's
 * retrievers, with the data set's tokenizer language, and for dense retrieval the model client's
 * embedding role (its vector cache and ledger). Pass it as `createRetriever` to buildMemory /
 * respondInSession; tests use the same factory with the fake server behind the client.
 */
import { InvalidInputError } from "@/lib/errors";
import type { ModelClient } from "@/lib/llm/client";
import { createRetriever } from "@/lib/retrieval";
import type { Retriever } from "@/lib/retrieval/types";

export type MethodRetrieverOptions = { language: "zh" | "en"; llm?: ModelClient; purpose?: string };

export function methodRetriever(kind: "bm25" | "tfidf" | "dense", o: MethodRetrieverOptions): Retriever {
  if (kind === "dense") {
    const llm = o.llm;
    if (!llm) throw new InvalidInputError("dense retrieval needs the model client's embedding role");
    return createRetriever("dense", { embed: (texts) => llm.embed(texts, { purpose: o.purpose ?? "retrieve" }), model: llm.config("embedding").model });
  }
  return createRetriever(kind, { tokenizer: { language: o.language } });
}
