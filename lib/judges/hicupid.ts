/**
 * HiCUPID's judges (HiCUPID §4). Persona and profile (multi-info) items: an A/B/Tie comparison of the
 * model's answer with the personalized reference answer; the judge explains first and gives its verdict
 * on the final line. Schedule items: a YES/NO check that the answer respects the user's schedule.
 * The judges are the only readers of the QA metadata; it never reaches the assistant.
 */
import type { ChatMessage } from "./types";
import type { AbVerdict } from "@/lib/metrics";

/** 2: the schedule judge's two worked examples (HiCUPID Figure A15's structure). */
export const HICUPID_JUDGE_VERSION = 2;

export type PersonaMeta = { relation?: string; entity?: string };
export type ProfileMeta = { age?: unknown; gender?: string; personality?: string; occupation?: string; income_range?: string };
export type ScheduleMeta = { datetime?: string; event?: string };
export type QaMetadata = { persona?: PersonaMeta; profile?: ProfileMeta; schedule?: ScheduleMeta };

/** The user information an A/B judge sees: the persona, plus the profile fields for profile items. */
export function personalInfo(type: "persona" | "profile", meta: QaMetadata): string {
  const lines: string[] = [];
  if (meta.persona) lines.push(`Persona: the user ${meta.persona.relation ?? ""} ${meta.persona.entity ?? ""}`.replace(/\s+/g, " ").trim());
  if (type === "profile" && meta.profile) {
    const p = meta.profile;
    lines.push(`Age: ${p.age ?? "?"}`, `Gender: ${p.gender ?? "?"}`, `Personality: ${p.personality ?? "?"}`);
    lines.push(`Occupation: ${p.occupation ?? "?"}`, `Income range: ${p.income_range ?? "?"}`);
  }
  return lines.join("\n");
}

export function abJudgeMessages(input: {
  type: "persona" | "profile";
  metadata: QaMetadata;
  question: string;
  answerA: string;
  answerB: string;
}): ChatMessage[] {
  const content = [
    "Compare two answers (A and B) to a user's question on two criteria:",
    "1. Personalization: does the answer take the user's personal information into account?",
    "2. Logical validity: is the answer sound and relevant to the question?",
    "For each criterion write one short line comparing A and B. Then, on the last line and nothing after it, give your verdict as `Better Response: A`, `Better Response: B` or `Better Response: Tie` (Tie when both are equally good or equally weak). No bold text.",
    "Format:\n1. Personalization: <one line>\n2. Logical Validity: <one line>\n\nBetter Response: <A/B/Tie>",
    `User's personal information:\n${personalInfo(input.type, input.metadata)}`,
    `Question: ${input.question}`,
    `Answer (A): ${input.answerA}`,
    `Answer (B): ${input.answerB}`,
  ].join("\n\n");
  return [{ role: "user", content }];
}

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

/** The last non-empty line of a judge's reply. */
function lastLine(text: string): string {
  const lines = text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter(Boolean);
  return (lines.at(-1) ?? "").replace(/[*_`]/g, "");
}

export class JudgeParseError extends Error {}

/** The verdict from the final line ("Better Response: A|B|Tie"); throws so the caller retries. */
export function parseAbVerdict(text: string): AbVerdict {
  const m = /^better response\s*:\s*\[?\s*(A|B|Tie)\s*\]?\s*\.?$/i.exec(lastLine(text));
  if (!m) throw new JudgeParseError(`no "Better Response: A/B/Tie" on the last line: ${JSON.stringify(lastLine(text)).slice(0, 120)}`);
  const v = m[1].toLowerCase();
  return v === "a" ? "A" : v === "b" ? "B" : "Tie";
}

/** YES/NO from the final line ("Satisfaction: YES|NO"). */
export function parseYesNo(text: string): "YES" | "NO" {
  const m = /^satisfaction\s*:\s*\[?\s*(YES|NO)\s*\]?\s*\.?$/i.exec(lastLine(text));
  if (!m) throw new JudgeParseError(`no "Satisfaction: YES/NO" on the last line: ${JSON.stringify(lastLine(text)).slice(0, 120)}`);
  return m[1].toUpperCase() as "YES" | "NO";
}
