/**
 * The answer prompt of HiCUPID's inference settings (own wording; the data set is English). The
 * instruction goes either into the system prompt or at the top of the user turn (a setting: HiCUPID
 * found it changes results a lot). Inputs: the dialogue history (whole, gold or retrieved), optional
 * examples, the question. Output: a plain-text answer.
 */
import type { ChatMessage } from "@/lib/llm/types";

export const HICUPID_INSTRUCTION =
  "You are the user's personal assistant. The turns before the question are your earlier conversations with this user. Answer the user's new question in a way that fits this user in particular: take into account what they like and dislike, their circumstances and their existing schedule. Answer directly, in a few sentences.";

/** The assistant's short reply to the instruction turn, before the history (HiCUPID Figures A11-A13's layout). */
export const HICUPID_ACK = "Sure. What can I help you with?";

/**
 * HiCUPID's layout (Figures A11-A13): the instruction (with the examples, if any) as the first user turn
 * answered by a short assistant acknowledgement, or as the system prompt; then the dialogue history as
 * the user's and the assistant's own turns; then the question as the last user turn.
 */
export function hicupidAnswerMessages(input: {
  instruction: "user" | "system";
  history: ReadonlyArray<{ user: string; assistant: string }>;
  /** Each shot: a question with its personalized and general answer (HiCUPID's few-shot format). */
  examples: Array<{ question: string; answer: string; generalAnswer: string }>;
  question: string;
}): ChatMessage[] {
  const head = [
    HICUPID_INSTRUCTION,
    ...(input.examples.length
      ? [
          `# Examples of personalized answers (other users)\n${input.examples
            .map(
              (e, i) => `Example ${i + 1}:\nQuestion: ${e.question}\nPersonalized answer: ${e.answer}\nGeneral answer: ${e.generalAnswer}`,
            )
            .join("\n\n")}`,
        ]
      : []),
  ].join("\n\n");
  const opening: ChatMessage[] =
    input.instruction === "system"
      ? [{ role: "system", content: head }]
      : [
          { role: "user", content: head },
          { role: "assistant", content: HICUPID_ACK },
        ];
  const history: ChatMessage[] = input.history.flatMap((t) => [
    { role: "user" as const, content: t.user },
    { role: "assistant" as const, content: t.assistant },
  ]);
  return [...opening, ...history, { role: "user", content: `# The user's question\n${input.question}` }];
}
