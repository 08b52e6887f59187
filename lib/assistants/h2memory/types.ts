/**
 * H2Memory's own shapes: the session it reads, the model/retrieval/clustering services it needs
 * (injected, so each step is testable alone), and the memory parts it stores (Mem-PAL: M_G, M_B, M_T,
 * M_P). Entry kinds are the table's `kind` values; the inspector reads the same shapes.
 */
import type { z } from "zod";
import type { Aspect, TopicOutline } from "./schemas";
import type { Lang, Prompt, PromptTurn } from "./prompts";

export type H2Session = {
  seq: number;
  /** The sample id, e.g. "0000_sample3", or a HiCUPID dialogue id. */
  key: string;
  split: "history" | "query";
  /** The dialogue's time (PAL-Set dialogue_timestamp); empty when the data set has none. */
  timestamp: string;
  logs: Array<{ timestamp: string; content: string }>;
  turns: PromptTurn[];
};

/** One validated model call; `callKey` identifies it in the ledger and cache (for the inspector). */
export type Called<T> = { value: T; callKey: string | null };

export type H2Services = {
  lang: Lang;
  chat<T>(prompt: Prompt, schema: z.ZodType<T>): Promise<Called<T>>;
  embed(texts: string[]): Promise<number[][]>;
  /** Ids of the k docs most relevant to the query, best first. */
  topK(docs: Array<{ id: string; text: string }>, query: string, k: number): Promise<string[]>;
};

export type H2Parts = { graph: boolean; background: boolean; topic: boolean; principle: boolean };

export type H2Options = {
  parts: H2Parts;
  /** Retrieval depth (Mem-PAL: k = 3). */
  k: number;
  /** KMeans clusters for M_P (Mem-PAL: 8). */
  clusters: number;
  /** KMeans starts tried at one n while a cluster has < 2 members (Mem-PAL's public code: up to 100). */
  clusterTries: number;
  /** Fixed, recorded KMeans seed. */
  seed: number;
  /** Logs per log-graph window and earlier logs given as context (Mem-PAL Appendix C: 10 and 10). */
  window: number;
  /** "dialogue-only" for data without logs (HiCUPID): M_T + one principle per dialogue, no clustering. */
  mode: "full" | "dialogue-only";
};

export const DEFAULT_H2_OPTIONS: H2Options = {
  parts: { graph: true, background: true, topic: true, principle: true },
  k: 3,
  clusters: 8,
  clusterTries: 100,
  seed: 42,
  window: 10,
  mode: "full",
};

// ---- stored entries (memory_entries.content) ----

export type LogEdge = { from: string; to: string; type: "caused_by" | "follows" };

/** kind "log_graph", key = session key: the session's log graph M_G (nodes are the session's logs). */
export type LogGraphEntry = {
  logs: Array<{ id: string; timestamp: string; content: string }>;
  edges: LogEdge[];
  /** Connected components, each a list of log ids in time order; index = situation index. */
  components: string[][];
  windows: Array<{ first: string; last: string; context: number; callKey: string | null }>;
  /** Ids the model named outside their window, dropped (log-graph.ts); absent when there were none. */
  warnings?: string[];
};

/** kind "situation", key = `${session}/s${i}`: one situation per component, with its aspects (F_GB). */
export type SituationEntry = {
  session: string;
  index: number;
  situation: string;
  aspects: Aspect[];
  logIds: string[];
  callKey: string | null;
};

/** kind "background", key = aspect: the aspect's summary as of this session (a new version per change). */
export type BackgroundEntry = { aspect: Aspect; text: string; timeSpan: string; session: string; callKey: string | null };

/** kind "topic_outline", key = `${session}/t${i}`: the outline with its refined requirement (r̂). */
export type TopicOutlineEntry = TopicOutline & {
  session: string;
  index: number;
  /** The requirement as extracted, before the rewrite with background and situations. */
  originalRequirement: string;
  /** Keys of the situations used in the rewrite. */
  situations: string[];
  callKey: string | null;
  refineCallKey: string | null;
};

/** kind "principle", key = `cluster-${i}` (or `${session}` in dialogue-only mode): a requirement type and its principle. */
export type PrincipleEntry = {
  cluster: number;
  general_requirement: string;
  principle: string;
  /** Topic-outline keys assigned to this cluster (F_TP). */
  members: string[];
  /** The cluster centre (features of the member requirements); absent in dialogue-only mode. */
  centre?: number[];
  /** The members the abstraction prompts showed when the cluster had more than 10 (a seeded sample). */
  prompted?: string[];
  /**
   * On the first principle, when a cluster had < 2 members: the configured seed, the start kept (`kept`, when
   * not the seed), the failed starts before it at the kept n (`restarts`), and each n given up on after all its
   * starts failed (`redone`).
   */
  clustering?: { seed: number; kept?: number; restarts?: number; redone?: Array<{ n: number; sizes: number[]; tries: number }> };
  callKeys: string[];
};

export type H2EntryKind = "log_graph" | "situation" | "background" | "topic_outline" | "principle";

/**
 * An entry to store. `validFrom` is the first session seq whose answers may use it: a session's logs
 * (graph, situations, background) serve that session itself; its dialogue (outlines, principles) only
 * the sessions after it.
 */
export type H2Entry = { kind: H2EntryKind; key: string; content: unknown; validFrom: number };

/** What one session's build carries to the next (reloaded from the store on resume). */
export type H2State = {
  background: { time_span: string; background: Record<Aspect, string>; start: string | null };
  outlines: Array<{ key: string; requirement: string; preference: string; feature?: number[] }>;
  principles: PrincipleEntry[] | null;
};

export const emptyState = (): H2State => ({
  background: { time_span: "", background: { work: "", health: "", family: "", leisure: "" }, start: null },
  outlines: [],
  principles: null,
});
