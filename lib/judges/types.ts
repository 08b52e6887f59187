/** The model port owns these (lib/llm/types.ts); re-exported for the judges' prompt builders. */
export type { ChatMessage, Lang } from "@/lib/llm/types";

/** Quotes a block of input the way the papers' prompts fence their inputs. */
export function block(text: string): string {
  return `"""\n${text}\n"""`;
}

/** JSON for prompt inputs: readable, non-ASCII kept (Chinese stays Chinese). */
export function json(value: unknown): string {
  return JSON.stringify(value, null, 2);
}
