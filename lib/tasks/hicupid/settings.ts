/**
 * HiCUPID's inference settings (HiCUPID §4), as "methods" of the hicupid task next to the memory methods:
 * the model answers with part or all of the user's dialogue history in its context, not with a memory.
 * - full-history: zero-shot with the whole history;
 * - gold: only the dialogues the QA item is about (its relevant dialogue ids);
 * - rag-utterance: BM25 or dense retrieval of user messages (each with the assistant reply that followed),
 *   top k, put back in chronological order;
 * - rag-dialogue: retrieval of whole dialogues, top k, in chronological order.
 * Each takes `instruction` (in the user turn or as the system prompt) and `shots` (0, 1, 3 or 5 examples
 * from the train split); the RAG settings also `bm25`: "rank_bm25" (HiCUPID's public retrieval: rank_bm25's
 * BM25Okapi over whitespace tokens of the user messages) or "project" (the project's tokenizer and "+1"
 * idf, the default). One list: the config, the task and the pages read it.
 */
import { z } from "zod";

const common = {
  instruction: z.enum(["user", "system"]).default("user"),
  shots: z.union([z.literal(0), z.literal(1), z.literal(3), z.literal(5)]).default(0),
};

export const CONTEXT_SETTINGS = {
  "full-history": { label: "Zero-shot, whole history", options: z.object(common).strict() },
  gold: { label: "Relevant dialogues only (gold)", options: z.object(common).strict() },
  "rag-utterance": {
    label: "RAG, utterance level",
    options: z
      .object({
        ...common,
        retriever: z.enum(["bm25", "dense"]).default("bm25"),
        bm25: z.enum(["project", "rank_bm25"]).default("project"),
        k: z.union([z.literal(5), z.literal(15), z.literal(25)]).default(5),
      })
      .strict(),
  },
  "rag-dialogue": {
    label: "RAG, dialogue level",
    options: z
      .object({
        ...common,
        retriever: z.enum(["bm25", "dense"]).default("bm25"),
        bm25: z.enum(["project", "rank_bm25"]).default("project"),
        k: z.union([z.literal(1), z.literal(3), z.literal(5)]).default(1),
      })
      .strict(),
  },
} as const;

export type ContextSettingName = keyof typeof CONTEXT_SETTINGS;
export type ContextOptions = {
  instruction: "user" | "system";
  shots: 0 | 1 | 3 | 5;
  retriever?: "bm25" | "dense";
  bm25?: "project" | "rank_bm25";
  k?: number;
};

export function isContextSetting(name: string): name is ContextSettingName {
  return Object.hasOwn(CONTEXT_SETTINGS, name);
}
