/**
 * What a task needs from the rest of the system, as two narrow ports:
 * - ModelPort: the one model client (lib/llm) bound to a job: JSON replies validated by a zod schema
 *   (retried, then a failure), or text replies parsed by a function; cache, retries, ledger are its job;
 * - AssistantPort: one method of lib/assistants for one user, with its memory built up to the session
 *   of the item; it renders the memory it would put in a prompt for a query in a phase.
 * lib/jobs/bind.ts binds them to the real implementations; tasks never import lib/llm directly.
 */
import type { ZodType } from "zod";
import type { ChatMessage } from "@/lib/judges/types";

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
};

export type ChatResult<T> = { value: T; raw: string };

export interface ModelPort {
  chatJson<T>(req: ChatRequest & { schema: ZodType<T> }): Promise<ChatResult<T>>;
  chatText<T>(req: ChatRequest & { parse: (text: string) => T }): Promise<ChatResult<T>>;
}

/** The memory a method would show for a query; `retrieved` lists the entries used (for the drill-down). */
export type RenderedMemory = { text: string; retrieved: unknown[] };
export type Phase = "requirement" | "solution";

export interface AssistantPort {
  readonly method: string;
  memory(query: string, phase: Phase): Promise<RenderedMemory>;
}
