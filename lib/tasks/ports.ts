/**
 * What a task needs from the rest of the system, as two narrow ports:
 * - ModelPort: the one model client (lib/llm) bound to a job: JSON replies validated by a zod schema
 *   (retried, then a failure), or text replies parsed by a function; cache, retries, ledger are its job;
 * - AssistantPort: one method of lib/assistants for one user, its memory built, answering task inputs in
 *   the item's session (respondInSession): the method retrieves and answers with the shared task prompts.
 * lib/experiments/job-model.ts and deps.ts bind them to the real implementations; tasks never import lib/llm directly.
 */
import type { ZodType } from "zod";
import type { ChatMessage, Lang } from "@/lib/llm/types";
import type { RetrievedItem, TaskInput, TaskOutput } from "@/lib/assistants/core/types";

export type ModelRoleName = "assistant" | "user-simulator" | "judge";

export type ChatRequest = {
  role: ModelRoleName;
  /** A named configuration such as "judge:gscore"; default: the role. */
  config?: string;
  /** What the call is for, e.g. "requirement.answer" (the ledger's purpose). */
  purpose: string;
  messages: ChatMessage[];
  /** Replicate index: part of the cache key, so repeated sampled calls are distinct paid calls. */
  replicate?: number;
  temperature?: number;
  /** The data set's language: a reply in the other language is asked again. */
  language?: Lang;
};

export type ChatResult<T> = { value: T; raw: string };

export interface ModelPort {
  chatJson<T>(req: ChatRequest & { schema: ZodType<T> }): Promise<ChatResult<T>>;
  chatText<T>(req: ChatRequest & { parse: (text: string) => T }): Promise<ChatResult<T>>;
  /** The embedding role (dense retrieval), cached per text. */
  embed(texts: string[], purpose: string): Promise<number[][]>;
}

/** A method's answer to one task input, with the memory entries it used (for the drill-down). */
export type AssistantAnswer = { output: TaskOutput; retrieved: RetrievedItem[] };

export interface AssistantPort {
  readonly method: string;
  respond(input: TaskInput): Promise<AssistantAnswer>;
}

/** The output of the expected type, or an error naming what came back (a method bug, not model noise). */
export function outputOf<K extends TaskOutput["type"]>(a: AssistantAnswer, type: K): Extract<TaskOutput, { type: K }> {
  if (a.output.type !== type) throw new Error(`expected a ${type} answer, got ${a.output.type}`);
  return a.output as Extract<TaskOutput, { type: K }>;
}
