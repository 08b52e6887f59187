/**
 * What HiCUPID's two judges (HiCUPID §4) share: the QA metadata they read (the judges are its only
 * readers; it never reaches the assistant), their version, and the final-line reading of a reply.
 */

/**
 * 2: the schedule judge's two worked examples (HiCUPID Figure A15's structure). 3: the public scripts' reading
 * of a reply as an option (verdicts: "public").
 */
export const HICUPID_JUDGE_VERSION = 3;

/**
 * How a reply is read. "public" (HiCUPID's public scoring, src/utils/evaluate.py): the verdict found anywhere
 * in the reply (the first line holding the label; on it the last A/B/Tie or YES/NO, case-insensitive, as its
 * regular expression reads it), never asked again; an unparsed reply counts as Tie (A/B) or NO (schedule) and
 * is counted. "retry" (the project's reading, the default): the verdict on the last line, an unparsed reply
 * asked again with what was wrong.
 */
export type VerdictReading = "public" | "retry";

export type PersonaMeta = { relation?: string; entity?: string };
export type ProfileMeta = { age?: unknown; gender?: string; personality?: string; occupation?: string; income_range?: string };
export type ScheduleMeta = { datetime?: string; event?: string };
export type QaMetadata = { persona?: PersonaMeta; profile?: ProfileMeta; schedule?: ScheduleMeta };

/** The last non-empty line of a judge's reply. */
export function lastLine(text: string): string {
  const lines = text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter(Boolean);
  return (lines.at(-1) ?? "").replace(/[*_`]/g, "");
}

export class JudgeParseError extends Error {}
