/**
 * HiCUPID's A/B/Tie judge (persona and profile items): the model's answer and the personalized reference
 * answer are shown as A and B, the model's answer in a seeded, balanced slot (balancedSlots: THE answer-slot
 * rule, for experiments and campaigns alike); the judge explains first and gives its verdict on the final
 * line. One call per verdict; the verdict says who won from the model's side.
 */
import type { ChatMessage } from "@/lib/llm/types";
import { abOutcome, type AbOutcome, type AbVerdict } from "@/lib/metrics";
import { hashSeed, seededShuffle } from "@/lib/random";
import { oneCallJudge, type Judge } from "../judge";
import { HICUPID_JUDGE_VERSION, JudgeParseError, lastLine, type QaMetadata, type VerdictReading } from "./shared";

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

/** The verdict from the final line ("Better Response: A|B|Tie"); throws so the caller retries. */
export function parseAbVerdict(text: string): AbVerdict {
  const m = /^better response\s*:\s*\[?\s*(A|B|Tie)\s*\]?\s*\.?$/i.exec(lastLine(text));
  if (!m) throw new JudgeParseError(`no "Better Response: A/B/Tie" on the last line: ${JSON.stringify(lastLine(text)).slice(0, 120)}`);
  const v = m[1].toLowerCase();
  return v === "a" ? "A" : v === "b" ? "B" : "Tie";
}

/**
 * The public scripts' reading (VerdictReading "public"): the first line with "Better Response:", on it the last
 * A, B or Tie (case-insensitive, as HiCUPID's `Better Response:.*(A|B|Tie)` reads it); none: Tie, not parsed.
 */
export function readAbVerdictPublic(text: string): { verdict: AbVerdict; parsed: boolean } {
  const m = /Better Response:.*(A|B|Tie)/i.exec(text);
  if (!m) return { verdict: "Tie", parsed: false };
  const v = m[1].toLowerCase();
  return { verdict: v === "a" ? "A" : v === "b" ? "B" : "Tie", parsed: true };
}

/**
 * THE answer-slot rule: the slots (A or B) of the model's answer for a list of A/B items, exactly balanced
 * per type: the items of each type in a seeded random order, the first half (rounded down) in slot A and
 * the rest in slot B (an odd count leaves one more in B). Seeded by (seed, replicate, judge, type), so a
 * re-run shows the same. Experiments: the run's items, its seed and replicate, the judge's index in the
 * config; a campaign: all its items (keyed by their id as uploaded), the judge run's seed, replicate 0,
 * judge 0.
 */
export function balancedSlots(
  items: ReadonlyArray<{ itemKey: string; type: string }>,
  seed: number,
  replicate: number,
  judge: number,
): Map<string, "A" | "B"> {
  const out = new Map<string, "A" | "B">();
  for (const type of new Set(items.map((i) => i.type))) {
    const order = seededShuffle(
      // sorted first: the slots do not depend on the order the items were listed in
      items
        .filter((i) => i.type === type)
        .map((i) => i.itemKey)
        .sort(),
      hashSeed(`${seed}|${replicate}|judge${judge}|${type}`),
    );
    order.forEach((k, i) => out.set(k, i < Math.floor(order.length / 2) ? "A" : "B"));
  }
  return out;
}

export type AbJudgeInput = {
  type: "persona" | "profile";
  metadata: QaMetadata;
  question: string;
  /** The model's answer, the reference answer, and the slot the model's answer is shown in. */
  answer: string;
  reference: string;
  modelSlot: "A" | "B";
  /** How the reply is read (default "retry"). */
  verdicts?: VerdictReading;
};

/**
 * The judge's A/B are display slots; `outcome` is the model's (win: its answer was preferred). `parsed`: false
 * when the public reading found no verdict (counted as Tie).
 */
export type AbJudgeVerdict = { verdict: AbVerdict; modelSlot: "A" | "B"; outcome: AbOutcome; reply: string; parsed: boolean };

export const hicupidAbJudge: Judge<AbJudgeInput, AbJudgeVerdict> = oneCallJudge(
  { name: "hicupid-ab", label: "HiCUPID A/B/Tie judge (persona, profile; answer slot balanced per type)", version: HICUPID_JUDGE_VERSION },
  {
    messages: (input) => {
      const [answerA, answerB] = input.modelSlot === "A" ? [input.answer, input.reference] : [input.reference, input.answer];
      return abJudgeMessages({ type: input.type, metadata: input.metadata, question: input.question, answerA, answerB });
    },
    purposePart: (input) => input.type,
    parse: (text, input) => (input.verdicts === "public" ? readAbVerdictPublic(text) : { verdict: parseAbVerdict(text), parsed: true }),
  },
  (reply, input) => ({
    verdict: reply.value.verdict,
    modelSlot: input.modelSlot,
    outcome: abOutcome(reply.value.verdict, input.modelSlot),
    reply: reply.raw,
    parsed: reply.value.parsed,
  }),
);
