/** A chat message as every prompt builder returns it (the model client sends these as they are). */
export type ChatMessage = { role: "system" | "user" | "assistant"; content: string };

export type Lang = "zh" | "en";

/** Quotes a block of input the way the papers' prompts fence their inputs. */
export function block(text: string): string {
  return `"""\n${text}\n"""`;
}

/** JSON for prompt inputs: readable, non-ASCII kept (Chinese stays Chinese). */
export function json(value: unknown): string {
  return JSON.stringify(value, null, 2);
}
