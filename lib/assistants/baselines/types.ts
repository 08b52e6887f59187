/**
 * What the six memory baselines (turn-rag, session-rag, recursum, conditionmem, memorybank,
 * ld-agent) share: the session they are built from, the model call they make, and the entries they
 * leave in memory. Each method's build step is `step(state, session) → { state, entries, calls }`
 * with a JSON state, so a build can stop after any session and resume from the stored state.
 * Every entry names the model calls whose replies it was made from (their cache keys), so the
 * inspector links each entry to exactly those ledger rows.
 */
import type { z } from "zod";
import type { ChatMessage, Lang, LogItem, TurnItem } from "./history-text";

export type BaselineSession = {
  /** Position in the user's timeline (history then query sessions; HiCUPID: dialogue order). */
  seq: number;
  sampleKey: string;
  /** The session's dialogue time, epoch ms. */
  at: number;
  /** The dialogue timestamp as published (shown to the model). */
  date: string;
  logs: readonly LogItem[];
  turns: readonly TurnItem[];
};

/** One validated model call; the adapter routes it through the one model client. */
export type ChatCall<T> = {
  purpose: string;
  messages: ChatMessage[];
  schema: z.ZodType<T>;
  /** True when the reply is prose in the data set's language (a summary, a note), so the client may check it. */
  prose?: boolean;
};
/** A validated reply and the cache key of the call that gave it (deterministic: a cached rebuild gets the same key). */
export type Called<T> = { value: T; callKey: string };
export type ChatFn = <T>(call: ChatCall<T>) => Promise<Called<T>>;

/**
 * A memory entry as a method produces it. `visibleFrom` is the first session whose answers may use
 * it: seq + 1 for what session seq taught, seq itself for what session seq's arrival flushed out of
 * earlier sessions (LD-Agent's event memory). `callKeys`: the calls whose replies it was made from,
 * [] for an entry no call made (a copy of the data, a cache, a strength change on recall).
 */
export type BaselineEntry = { kind: string; key: string; content: unknown; visibleFrom: number; callKeys: readonly string[] };

export type StepResult<S> = { state: S; entries: BaselineEntry[] };

export type StepContext = { chat: ChatFn; lang: Lang };

/** The retriever surface the baselines use (lib/retrieval's Retriever satisfies it). */
export interface SearchIndex<T = unknown> {
  add(docs: { id: string; text: string; meta?: T }[]): Promise<void>;
  search(query: string, k?: number): Promise<{ id: string; score: number; doc: { id: string; text: string; meta?: T } }[]>;
}
export type MakeIndex = <T>() => SearchIndex<T>;
