/**
 * The answer prompt of HiCUPID's inference settings (own wording; the data set is English). Layout as the
 * public inference code builds it (Figures A11-A13): the dialogue history first, as the user's and the
 * assistant's own turns; then the instruction (with the examples, if any) as a user turn answered by a short
 * acknowledgement; then the question as the last user turn. With the instruction as the system prompt
 * (a setting: HiCUPID found the placement changes results a lot): system prompt, history, question. The
 * instruction carries only what Figure A11's does: use the earlier conversations, bring in the user's
 * characteristics and information that bear on the question, answer in a few sentences.
 */
import type { ChatMessage } from "@/lib/llm/types";

export const HICUPID_INSTRUCTION = [
  "You are this user's personal AI assistant. When you answer the user's questions:",
  "- Draw on your earlier conversations with the user.",
  "- If those conversations show traits of the user that bear on the question, mention them and shape your answer around them.",
  "- If they hold information about the user that relates to the question, refer to it and fit your answer to it.",
  "- Be brief: answer in a few sentences.",
].join("\n");

/** The few-shot closing notes (Figures A12-A13 end the examples with the same two reminders). */
const EXAMPLE_NOTES = [
  "# Notes",
  "- Whenever what you know of the user allows it, give a personalized answer.",
  "- Keep answers to a few sentences.",
].join("\n");

/** The assistant's short reply to the instruction turn. */
export const HICUPID_ACK = "Sure. What can I help you with?";

export function hicupidInstruction(examples: ReadonlyArray<{ question: string; answer: string; generalAnswer: string }>): string {
  if (!examples.length) return HICUPID_INSTRUCTION;
  const list = examples
    .map((e, i) => `Example ${i + 1}:\n- Question: ${e.question}\n- Personalized answer: ${e.answer}\n- General answer: ${e.generalAnswer}`)
    .join("\n\n");
  return `${HICUPID_INSTRUCTION}\n\n# Examples\n\n${list}\n\n${EXAMPLE_NOTES}`;
}

export function hicupidAnswerMessages(input: {
  instruction: "user" | "system";
  history: ReadonlyArray<{ user: string; assistant: string }>;
  /** Each shot: a question with its personalized and general answer (HiCUPID's few-shot format). */
  examples: ReadonlyArray<{ question: string; answer: string; generalAnswer: string }>;
  question: string;
}): ChatMessage[] {
  const head = hicupidInstruction(input.examples);
  const history: ChatMessage[] = input.history.flatMap((t) => [
    { role: "user" as const, content: t.user },
    { role: "assistant" as const, content: t.assistant },
  ]);
  const question: ChatMessage = { role: "user", content: input.question };
  if (input.instruction === "system") return [{ role: "system", content: head }, ...history, question];
  return [...history, { role: "user", content: head }, { role: "assistant", content: HICUPID_ACK }, question];
}
