/**
 * What HiCUPID's two judges (HiCUPID §4) share: the QA metadata they read (the judges are its only
 * readers; it never reaches the assistant), their version, and the final-line reading of a reply.
 */

/** 2: the schedule judge's two worked examples (HiCUPID Figure A15's structure). */
export const HICUPID_JUDGE_VERSION = 2;

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
