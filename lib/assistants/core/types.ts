/**
 * The Assistant interface: what a memory method (vanilla, RAG, RecurSum, ConditionMem, MemoryBank,
 * LD-Agent, H2Memory, ...) implements. See lib/assistants/README.md for the full contract.
 */
import type { z } from "zod";
import type { ModelRole } from "@/db/schema";
import type { ModelClient } from "@/lib/llm/client";
import type { MemoryReader, MemoryWriter } from "@/lib/memory/store";
import type { Retriever, RetrieverKind } from "@/lib/retrieval";
import type { ASSISTANT_ACTIONS } from "@/lib/datasets/palset/actions";

import type { Lang } from "@/lib/llm/types";
/** The data set's language (lib/llm's Lang under the name the methods use). */
export type Language = Lang;
export type DatasetKind = "palset" | "hicupid" | "locomo" | "longmemeval";
/** The assistant actions of PAL-Set dialogues, normalised (lib/datasets/palset/actions). */
export type AssistantActionCode = (typeof ASSISTANT_ACTIONS)[number];

export type SessionLog = { timestamp: string; content: string };

/** One dialogue turn. Action labels are the data set's text; codes are normalised (null on HiCUPID). */
export type DialogueTurn = {
  user: string;
  assistant: string;
  userAction: string | null;
  userActionCode: string | null;
  assistantAction: string | null;
  assistantActionCode: string | null;
};

/**
 * One session of a user's timeline, as memory methods may see it. PAL-Set: one sample (history and
 * query alike, in time order) with its logs and dialogue; its topics (query, implicit needs,
 * requirement, solutions) are evaluation material and are never part of it. HiCUPID: one dialogue,
 * no logs; its metadata and the QA pairs are never part of it.
 */
export type Session = {
  /** 0-based position in the user's timeline. */
  seq: number;
  /** PAL-Set sample id, or HiCUPID dialogue id. */
  key: string;
  /** PAL-Set "history" | "query"; HiCUPID its split. */
  split: string;
  /** PAL-Set dialogue_timestamp; null on HiCUPID. */
  timestamp: string | null;
  logs: SessionLog[];
  dialogue: DialogueTurn[];
};

/** What the logs phase of a session may see: its logs, not its dialogue. */
export type SessionLogs = Omit<Session, "dialogue">;

/** The session a task is asked in: its logs are known, its dialogue is not. */
export type CurrentSession = SessionLogs;

/**
 * A task input. `query`: Task 1 (restate the requirement behind a vague query); `requirement`:
 * Task 2 generation; `selection`: Task 2 selection (pick 2 of the candidates); `dialogue`: Task 3
 * (the next assistant turn of the given action, after the turns so far; the last turn has only the
 * user side); `question`: a HiCUPID question.
 */
export type TaskInput =
  | { type: "query"; query: string }
  | { type: "requirement"; requirement: string }
  | { type: "selection"; requirement: string; candidates: Array<{ id: string; solution: string }> }
  | { type: "dialogue"; turns: Array<{ user: string; assistant?: string }>; action: AssistantActionCode }
  | {
      type: "question";
      question: string;
      /**
       * "memory": a conversational-memory benchmark question (LoCoMo, LongMemEval), answered with a short
       * phrase from what the earlier conversations said; absent: HiCUPID's personalised answer.
       */
      style?: "memory";
      /** When the question is asked (LongMemEval's question_date), for questions about time. */
      askedAt?: string | null;
      /**
       * The benchmark asking (memory questions): named in the answer's ledger purpose
       * ("<method>.respond.question.locomo"), which sets its output budget (lib/llm/max-tokens.ts).
       */
      benchmark?: "locomo" | "longmemeval";
      /** The answer's output budget when the run declares one (config answerTokens); else the purpose's. */
      maxTokens?: number;
    };

export type TaskType = TaskInput["type"];

/** The answer to each input type, with the papers' output keys. */
export type TaskOutput =
  | { type: "query"; requirement: string }
  | { type: "requirement"; solution: string }
  | { type: "selection"; analysis: string; selected_solutions: string[] }
  | { type: "dialogue"; content: string }
  | { type: "question"; answer: string };

/** One piece of memory an answer used (shown in case studies; used for retrieval recall). */
export type RetrievedItem = { kind: string; key: string; text: string; score?: number };

export type RespondResult = {
  output: TaskOutput;
  retrieved: RetrievedItem[];
  /** Model calls made for this answer (cache hits included). */
  calls: number;
};

type CommonContext<O> = {
  /** The model client, writing this memory version (or job) as the origin of every call. */
  llm: ModelClient;
  options: O;
  /** The data set's language: pick the prompt wording with it and pass it to chat(). */
  language: Language;
  datasetKind: DatasetKind;
  userKey: string;
  /** The retriever kind chosen for this memory (--retriever). */
  retrieverKind: RetrieverKind;
  /** A fresh, empty retriever of `kind` (default: retrieverKind). */
  retriever: (kind?: RetrieverKind) => Retriever;
};

/** Given to the build hooks: write access to the memory, positioned at the phase's point. */
export type BuildContext<O = Record<string, unknown>> = CommonContext<O> & {
  memory: MemoryWriter;
  /** The session's seq. */
  seq: number;
};

/** Given to respond: the memory as it stands for an answer in session `current.seq`. */
export type RespondContext<O = Record<string, unknown>> = CommonContext<O> & {
  memory: MemoryReader;
  current: CurrentSession;
};

/** A number of model calls the algorithm implies: min === max where it fixes the number. */
export type CallRange = { min: number; max: number };

/**
 * What building a memory will cost before it runs: calls per model role (ranges where the count
 * depends on model answers), and how the bounds arise when they are not exact.
 */
export type BuildEstimate = {
  calls: Partial<Record<ModelRole, CallRange>>;
  note?: string;
  /**
   * Parts of `calls` (together at most all of them) that another method's build makes with the very same
   * requests when it gives the same `key` (e.g. H2Memory's ablations re-make H2Memory's log graphs and
   * situations): the model client answers the second from its cache, so the dry run counts them once.
   */
  shared?: BuildSharedPart[];
};

/** One shareable part of a build's calls; `key` names everything its requests depend on. */
export type BuildSharedPart = { key: string; calls: Partial<Record<ModelRole, CallRange>> };

export type BuildEstimateContext<O> = {
  options: O;
  datasetKind: DatasetKind;
  retrieverKind: RetrieverKind;
  /** Seqs of sessions an earlier run already built (builds go in order, so these are a prefix). */
  done: ReadonlySet<number>;
};

export interface Assistant<O = Record<string, unknown>> {
  /** The method name used everywhere (CLI, experiments, ledger purposes): "h2memory". */
  id: string;
  label: string;
  description: string;
  /** Options with defaults; `options.parse({})` must succeed. Part of the memory's settings key. */
  options: z.ZodType<O>;
  /** The entry kinds the method writes (for `pal memory show` and the memory page). */
  entryKinds: readonly string[];
  /** Model roles used while building (their endpoint/model become part of the settings key). */
  buildRoles: readonly ModelRole[];
  /** Whether the retriever kind changes what is built or answered (then it is in the settings key). */
  usesRetriever: boolean;
  /**
   * Phase 1 of session `seq`: its logs. Entries written here are visible from seq on (answers in
   * session seq may use them). Not called on data sets without logs (HiCUPID).
   */
  buildLogs?(ctx: BuildContext<O>, session: SessionLogs): Promise<void>;
  /**
   * Phase 2 of session `seq`: its dialogue (and logs). Entries written here are visible from seq + 1
   * on: an answer in session seq never sees its own dialogue.
   */
  buildDialogue?(ctx: BuildContext<O>, session: Session): Promise<void>;
  /**
   * Optional: the model calls of a session's build that depend on that session alone (its logs or
   * dialogue), never on memory. The builder starts them ahead, while earlier sessions still build, at
   * a priority below every call of the sessions being built, so they fill idle slots instead of
   * lengthening the chain. It writes nothing; the phases make the same calls and get them from the
   * cache (or join them in flight). A failure here is ignored: the phase redoes the call.
   */
  prefetch?(ctx: Omit<BuildContext<O>, "memory">, session: Session): Promise<void>;
  /**
   * Optional (needed when buildRoles is not empty): the calls building over `sessions` will make,
   * without calling the model; the sessions in ctx.done are skipped. The dry run shows it. A method
   * with no build roles makes no build calls.
   */
  estimateBuild?(sessions: readonly Session[], ctx: BuildEstimateContext<O>): BuildEstimate;
  /** Answers a task input in session ctx.current.seq with what the memory holds at that point. */
  respond(ctx: RespondContext<O>, input: TaskInput): Promise<RespondResult>;
}
