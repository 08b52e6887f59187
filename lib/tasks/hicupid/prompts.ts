/**
 * The answer prompt of HiCUPID's inference settings (own wording; the data set is English). The
 * instruction goes either into the system prompt or at the top of the user turn (a setting: HiCUPID
 * found it changes results a lot). Inputs: the dialogue history (whole, gold or retrieved), optional
 * examples, the question. Output: a plain-text answer.
 */
import type { ChatMessage } from "@/lib/judges/types";

export const HICUPID_INSTRUCTION =
  "You are the user's personal assistant. The conversations below are your earlier conversations with this user. Answer the user's new question in a way that fits this user in particular: take into account what they like and dislike, their circumstances and their existing schedule. Answer directly, in a few sentences.";

export function hicupidAnswerMessages(input: {
  instruction: "user" | "system";
  history: string;
  /** Each shot: a question with its personalized and general answer (HiCUPID's few-shot format). */
  examples: Array<{ question: string; answer: string; generalAnswer: string }>;
  question: string;
}): ChatMessage[] {
  const parts = [
    `# Earlier conversations with the user\n${input.history || "(none)"}`,
    ...(input.examples.length
      ? [
          `# Examples of personalized answers (other users)\n${input.examples
            .map(
              (e, i) => `Example ${i + 1}:\nQuestion: ${e.question}\nPersonalized answer: ${e.answer}\nGeneral answer: ${e.generalAnswer}`,
            )
            .join("\n\n")}`,
        ]
      : []),
    `# The user's question\n${input.question}`,
  ];
  if (input.instruction === "system")
    return [
      { role: "system", content: HICUPID_INSTRUCTION },
      { role: "user", content: parts.join("\n\n") },
    ];
  return [{ role: "user", content: [HICUPID_INSTRUCTION, ...parts].join("\n\n") }];
}
