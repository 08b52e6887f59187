/**
 * The external-method protocol's messages (docs/external-methods.md): what PAL Studio sends, built field
 * by field from what a built-in method may see (never evaluation material), and the zod schemas every
 * reply must pass. Strings and lists are bounded: a reply is hostile until validated.
 */
import { z } from "zod";
import type { CurrentSession, Session, SessionLogs, TaskInput, TaskOutput, TaskType } from "../core/types";
import type { Usage } from "@/lib/llm/client-types";
import type { ChatMessage } from "@/lib/llm/types";

/** What a grant's calls go through: the job's model handle (a ModelClient), or the check's placeholder model. */
export type GrantModel = {
  chat(o: {
    messages: ChatMessage[];
    purpose: string;
    params?: Record<string, unknown>;
    maxTokens?: number;
    schema?: z.ZodType<unknown>;
  }): Promise<{ text: string; cacheKey: string; usage: Usage }>;
  embed(texts: string[], o: { purpose: string }): Promise<number[][]>;
};

/** The run's OpenAI-compatible endpoint as the method receives it. */
export type LlmAccess = { baseUrl: string; apiKey: string; models: { assistant: string; embedding: string } };

const text = (max: number) => z.string().max(max);

/** A session's logs phase: its logs and place in the timeline, never its dialogue. */
export function logsView(s: SessionLogs): SessionLogs {
  return {
    seq: s.seq,
    key: s.key,
    split: s.split,
    timestamp: s.timestamp,
    logs: s.logs.map((l) => ({ timestamp: l.timestamp, content: l.content })),
  };
}

/** A session's dialogue phase: its logs and dialogue turns (text and actions), nothing else of the sample. */
export function sessionView(s: Session): Session {
  return {
    ...logsView(s),
    dialogue: s.dialogue.map((t) => ({
      user: t.user,
      assistant: t.assistant,
      userAction: t.userAction,
      userActionCode: t.userActionCode,
      assistantAction: t.assistantAction,
      assistantActionCode: t.assistantActionCode,
    })),
  };
}

export const currentView = (s: CurrentSession): CurrentSession => logsView(s);

/** The task input, rebuilt from its known fields only. */
export function inputView(i: TaskInput): TaskInput {
  switch (i.type) {
    case "query":
      return { type: "query", query: i.query };
    case "requirement":
      return { type: "requirement", requirement: i.requirement };
    case "selection":
      return { type: "selection", requirement: i.requirement, candidates: i.candidates.map((c) => ({ id: c.id, solution: c.solution })) };
    case "dialogue":
      return {
        type: "dialogue",
        action: i.action,
        turns: i.turns.map((t) => (t.assistant === undefined ? { user: t.user } : { user: t.user, assistant: t.assistant })),
      };
    case "question":
      return { type: "question", question: i.question };
  }
}

/** Entries a method hands back from POST /sessions for PAL Studio to store (its memory, in the inspector). */
export const sessionsReply = z
  .object({
    entries: z
      .array(z.object({ kind: text(100).min(1), key: text(500).min(1), content: z.unknown() }))
      .max(2000)
      .optional(),
  })
  .passthrough();

const OUTPUT = {
  query: z.object({ requirement: text(20_000) }),
  requirement: z.object({ solution: text(50_000) }),
  selection: z.object({ analysis: text(50_000), selected_solutions: z.array(text(200)).max(50) }),
  dialogue: z.object({ content: text(20_000) }),
  question: z.object({ answer: text(20_000) }),
} satisfies Record<TaskType, z.ZodTypeAny>;

/** The output keys each task type must answer with (the papers' keys, as TaskOutput). */
export const OUTPUT_KEYS: Record<TaskType, string[]> = Object.fromEntries(
  Object.entries(OUTPUT).map(([k, s]) => [k, Object.keys(s.shape)]),
) as Record<TaskType, string[]>;

const retrieved = z
  .array(z.object({ kind: text(100), key: text(500), text: text(20_000), score: z.number().finite().optional() }))
  .max(500)
  .default([]);

/** POST /respond's reply for one task type: the output's keys are checked strictly. */
export function respondReply(type: TaskType) {
  return z.object({ output: OUTPUT[type].strict(), retrieved }).passthrough();
}

export function toTaskOutput(type: TaskType, output: Record<string, unknown>): TaskOutput {
  return { type, ...output } as TaskOutput;
}

export const TASK_TYPES = Object.keys(OUTPUT) as TaskType[];

/** GET / : what the service says about itself. */
export const describeReply = z
  .object({
    name: text(200),
    version: text(100).optional(),
    tasks: z.array(z.enum(TASK_TYPES as [TaskType, ...TaskType[]])).max(10),
    /** Models the method calls outside the run's endpoint (their calls are outside the ledger and the audit). */
    outsideModels: z.array(text(200)).max(20).default([]),
    /** "returned": hands entries back; "service": keeps its memory itself, per namespace. */
    memory: z.enum(["returned", "service"]).optional(),
  })
  .passthrough();
export type ServiceDescription = z.infer<typeof describeReply>;
