/**
 * HiCUPID's schedule judge: a YES/NO check that one answer notices the user's schedule entry and deals
 * with it, the verdict on the reply's final line. One call per verdict.
 */
import type { ChatMessage } from "@/lib/llm/types";
import { oneCallJudge, type Judge } from "../judge";
import { HICUPID_JUDGE_VERSION, JudgeParseError, lastLine, type QaMetadata, type VerdictReading } from "./shared";

const EXAMPLE_SCHEDULE = "User's schedule:\n- Datetime: 3 PM on May 20, 2025\n- Event: Dentist appointment for a filling.";
const EXAMPLE_QUESTION = "Question: Please book a call with my landlord for 3 PM on May 20, 2025.";
const SCHEDULE_EXAMPLES = [
  `Example 1:\n\n${EXAMPLE_SCHEDULE}\n${EXAMPLE_QUESTION}\nAnswer: You already have your dentist appointment at 3 PM on May 20, 2025. Shall I move the landlord call to another time, or replace the appointment?\n\n1. Personalization: It spots the clash with the dentist appointment and offers ways out.\n\nSatisfaction: YES`,
  `Example 2:\n\n${EXAMPLE_SCHEDULE}\n${EXAMPLE_QUESTION}\nAnswer: Done, the call with your landlord is booked for 3 PM on May 20, 2025.\n\n1. Personalization: It books over the dentist appointment without mentioning it.\n\nSatisfaction: NO`,
];

export function scheduleJudgeMessages(input: { metadata: QaMetadata; question: string; answer: string }): ChatMessage[] {
  const s = input.metadata.schedule ?? {};
  const content = [
    "Check one answer against the user's schedule.",
    "Criterion: Personalization: does the answer notice the user's existing schedule entry and deal with it sensibly (for example by pointing out the clash)?",
    "Write one short line on the criterion, then on the last line and nothing after it `Satisfaction: YES` or `Satisfaction: NO`. No bold text.",
    "Format:\n1. Personalization: <one line>\n\nSatisfaction: <YES/NO>",
    // Two worked examples, one satisfying and one not, on the same schedule entry (HiCUPID Figure A15 gives
    // its judge the same structure; the wording and scenario here are the project's own).
    ...SCHEDULE_EXAMPLES,
    "Now the one to check.",
    `User's schedule:\n- Datetime: ${s.datetime ?? "?"}\n- Event: ${s.event ?? "?"}`,
    `Question: ${input.question}`,
    `Answer: ${input.answer}`,
  ].join("\n\n");
  return [{ role: "user", content }];
}

/** YES/NO from the final line ("Satisfaction: YES|NO"). */
export function parseYesNo(text: string): "YES" | "NO" {
  const m = /^satisfaction\s*:\s*\[?\s*(YES|NO)\s*\]?\s*\.?$/i.exec(lastLine(text));
  if (!m) throw new JudgeParseError(`no "Satisfaction: YES/NO" on the last line: ${JSON.stringify(lastLine(text)).slice(0, 120)}`);
  return m[1].toUpperCase() as "YES" | "NO";
}

/**
 * The public scripts' reading (VerdictReading "public"): the first line with "Satisfaction:", on it the last YES
 * or NO (case-insensitive, as HiCUPID's `Satisfaction:.*(YES|NO)` reads it); none: NO, not parsed.
 */
export function readYesNoPublic(text: string): { verdict: "YES" | "NO"; parsed: boolean } {
  const m = /Satisfaction:.*(YES|NO)/i.exec(text);
  if (!m) return { verdict: "NO", parsed: false };
  return { verdict: m[1].toUpperCase() as "YES" | "NO", parsed: true };
}

export type ScheduleJudgeInput = { metadata: QaMetadata; question: string; answer: string; verdicts?: VerdictReading };
/** `parsed`: false when the public reading found no verdict (counted as NO). */
export type ScheduleJudgeVerdict = { verdict: "YES" | "NO"; reply: string; parsed: boolean };

export const hicupidScheduleJudge: Judge<ScheduleJudgeInput, ScheduleJudgeVerdict> = oneCallJudge(
  { name: "hicupid-schedule", label: "HiCUPID YES/NO judge (schedule)", version: HICUPID_JUDGE_VERSION },
  {
    messages: scheduleJudgeMessages,
    purposePart: () => "schedule",
    parse: (text: string, input: ScheduleJudgeInput) =>
      input.verdicts === "public" ? readYesNoPublic(text) : { verdict: parseYesNo(text), parsed: true },
  },
  (reply) => ({ verdict: reply.value.verdict, reply: reply.raw, parsed: reply.value.parsed }),
);
