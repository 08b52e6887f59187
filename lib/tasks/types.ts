import type { Db } from "@/db/client";
import type { Lang } from "@/lib/llm/types";
import type { AssistantPort, ModelPort } from "./ports";
import type { TaskItem } from "./palset-items";
import type { TaskName } from "./names";
import type { Field, InfoCard } from "./readable";

export type { TaskItem };

/** One score row: a scorer's numbers for one job (and the judge's analyses in `detail`). */
export type ScoreRow = { scorer: string; version: number; values: Record<string, number | null>; detail?: unknown };

/** What a job stores: the assistant's inputs (never references), its output, the memory it used, the scores. */
export type JobOutcome = { input: unknown; output: unknown; retrieved?: unknown; scores: ScoreRow[] };

/**
 * What a task reads of the run's config: a narrow view of the experiment config (lib/experiments/config.ts
 * satisfies it), so that tasks, a lower layer, name nothing of the engine above them.
 */
export type TaskConfig = {
  users: "all" | string[];
  methods: ReadonlyArray<{ name: string; label?: string; options?: Record<string, unknown> }>;
  models: Partial<Record<"assistant" | "user-simulator" | "judge", { model?: string; temperature?: number }>>;
  seed: number;
  tieMargin?: number;
  hicupid: { splits: string[]; perSplit?: number; judges: string[]; verdicts?: "public" | "retry" };
  /** The output budget of a method's answer to a LoCoMo / LongMemEval question (the presets: the public code's). */
  answerTokens?: number;
};

export type JobContext = {
  db: Db;
  datasetId: number;
  lang: Lang;
  config: TaskConfig;
  replicate: number;
  jobId: number;
  method: string;
  model: ModelPort;
  /** The job's method for the item's user, memory built up to the item's session. */
  assistant: (userKey: string, sessionSeq: number) => Promise<AssistantPort>;
  /** Outputs of other jobs of the same experiment (pairwise judging reads the two dialogues). */
  jobOutput: (method: string, itemKey: string) => unknown;
  /** Kept for one worker run: an item read once serves every repeat and method (see palItemOf). */
  memo?: Map<string, unknown>;
};

/** Expected model calls per item, by role (the dry run multiplies them out). */
export type CallEstimate = { assistant: number; "user-simulator": number; judge: number; promptTokens: number; completionTokens: number };

export type ExportItemFields = { question?: string; reference?: unknown; category?: number; question_type?: string };

export interface TaskDef {
  name: TaskName;
  label: string;
  datasetKind: "palset" | "hicupid" | "locomo" | "longmemeval";
  items(db: Db, datasetId: number, users: "all" | string[]): TaskItem[];
  /** Items under the whole config, when more than the users matter (HiCUPID's splits and sample); default items(). */
  itemsFor?(db: Db, datasetId: number, config: TaskConfig): TaskItem[];
  estimate(config: TaskConfig): CallEstimate;
  run(ctx: JobContext, item: TaskItem): Promise<JobOutcome>;
  /** Metrics of one method × replicate from its items' score values (scorer → values). */
  metrics(items: Array<Record<string, Record<string, number | null>>>): Record<string, number | null>;
  /** The user's information and the item's references, labelled, for case studies and the drill-down. */
  describe?(db: Db, datasetId: number, itemKey: string): Array<{ label: string; text: string }>;
  /**
   * The same information as readable cards (profile, personality, situation, the topic's references) and,
   * apart, the reference a single-turn answer is scored against, shown beside it.
   */
  present?(db: Db, datasetId: number, itemKey: string): { cards: InfoCard[]; reference: Field[] };
  /**
   * For `pal export experiment ID --items` (one JSON line per job): the item's question and reference as a
   * notebook reads them, and LoCoMo's category or LongMemEval's question type where the item has one.
   */
  exportItem?(db: Db, datasetId: number, itemKey: string): ExportItemFields;
  /** Pairwise phase (dialogue): jobs comparing two methods' outputs on one item. */
  pairs?: {
    estimate(config: TaskConfig): CallEstimate;
    run(ctx: JobContext, item: TaskItem, a: string, b: string): Promise<JobOutcome>;
  };
}

export function mean(xs: Array<number | null | undefined>): number | null {
  const v = xs.filter((x): x is number => typeof x === "number" && Number.isFinite(x));
  return v.length ? v.reduce((s, x) => s + x, 0) / v.length : null;
}
