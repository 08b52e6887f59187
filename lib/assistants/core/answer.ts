import { taskPrompt } from "./task-prompts";
import type { RespondContext, RespondResult, RetrievedItem, TaskInput } from "./types";

/**
 * The last step of every method's respond(): fill the task prompt with the memory text the method
 * retrieved, ask the assistant role, validate the reply with the task's schema (regenerating invalid
 * or wrong-language replies) and return it with what was retrieved. Ledger purpose:
 * "<method>.respond.<input type>".
 */
export async function answerWithMemory(
  ctx: RespondContext<unknown>,
  method: string,
  input: TaskInput,
  memoryText: string,
  retrieved: RetrievedItem[],
): Promise<RespondResult> {
  const p = taskPrompt(input, memoryText, ctx.language);
  const r = await ctx.llm.chat({
    role: "assistant",
    messages: p.messages,
    schema: p.schema,
    language: ctx.language,
    purpose: `${method}.respond.${input.type}${input.type === "question" && input.benchmark ? `.${input.benchmark}` : ""}`,
    ...(input.type === "question" && input.maxTokens !== undefined ? { maxTokens: input.maxTokens } : {}),
  });
  return { output: p.toOutput(r.value), retrieved, calls: ctx.llm.callsMade };
}
