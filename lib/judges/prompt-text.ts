/** How the judges' prompts (and the tasks' own prompts) fence and print their inputs. */

/** Quotes a block of input the way the papers' prompts fence their inputs. */
export function block(text: string): string {
  return `"""\n${text}\n"""`;
}

/** JSON for prompt inputs: readable, non-ASCII kept (Chinese stays Chinese). */
export function json(value: unknown): string {
  return JSON.stringify(value, null, 2);
}
