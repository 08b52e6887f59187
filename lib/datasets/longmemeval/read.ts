/**
 * LongMemEval's public files (xiaowu0162/LongMemEval README, "Dataset Format"): longmemeval_s.json,
 * longmemeval_m.json and longmemeval_oracle.json, and since 2025-09 the cleaned longmemeval_s_cleaned.json
 * and longmemeval_m_cleaned.json (README 80152a1: the same fields, fewer interfering filler sessions; a few
 * haystacks list one filler session twice, issue #54), each a list of questions with `question_id`,
 * `question_type`, `question`, `answer`, `question_date`, `haystack_session_ids`, `haystack_dates`,
 * `haystack_sessions` (lists of `{role, content, has_answer?}` turns) and `answer_session_ids`; ids
 * ending in `_abs` are abstention questions. A question's timeline is its haystack in haystack_dates order
 * (the oracle file's is not sorted). The importer (./import.ts) streams the file question by question.
 */
import type { Checker } from "../convmem/check";
import type { QaIn, TurnIn } from "../convmem/types";

export const LME_TYPES = [
  "single-session-user",
  "single-session-assistant",
  "single-session-preference",
  "temporal-reasoning",
  "knowledge-update",
  "multi-session",
] as const;
export type LmeType = (typeof LME_TYPES)[number];

const KNOWN = new Set([
  "question_id",
  "question_type",
  "question",
  "answer",
  "question_date",
  "haystack_session_ids",
  "haystack_dates",
  "haystack_sessions",
  "answer_session_ids",
]);

/** "2023/05/20 (Sat) 02:21" sorts as written once the weekday is taken out. */
export const dateSortKey = (d: string) => d.replace(/\s*\([A-Za-z]+\)\s*/, " ").trim();

/** One checked question: its thread (timeline entries carry their session's id and turns) and its QA item. */
export type CheckedQuestion = {
  id: string;
  timeline: Array<{ label: string; date: string; turns: TurnIn[] }>;
  qa: Omit<QaIn, "thread">;
  /** The file's haystack was not in date order. */
  reordered: boolean;
  /** Session ids listed more than once in the haystack (kept each time, as the file has them). */
  repeated: string[];
  /** answer_session_ids not in the haystack. */
  missingEvidence: string[];
};

export function checkQuestion(c: Checker, raw: unknown, i: number): CheckedQuestion {
  const at = `[${i}]`;
  const q = c.object(raw, at);
  const id = c.key(q.question_id, `${at}.question_id`, true);
  const type = c.string(q.question_type, `${at}.question_type`);
  if (!(LME_TYPES as readonly string[]).includes(type))
    c.fail(`${at}.question_type`, `expected one of ${LME_TYPES.join(", ")}, got "${type}"`);
  const ids = c.keys(q.haystack_session_ids, `${at}.haystack_session_ids`);
  const dates = c.keys(q.haystack_dates, `${at}.haystack_dates`);
  const sessions = c.array(q.haystack_sessions, `${at}.haystack_sessions`);
  if (dates.length !== ids.length) c.fail(`${at}.haystack_dates`, `has ${dates.length} dates for ${ids.length} haystack_session_ids`);
  if (sessions.length !== ids.length)
    c.fail(`${at}.haystack_sessions`, `has ${sessions.length} sessions for ${ids.length} haystack_session_ids`);
  const timeline = sessions.map((s, j) => {
    const w = `${at}.haystack_sessions[${j}]`;
    const turns: TurnIn[] = c.array(s, w).map((t, k) => {
      const o = c.object(t, `${w}[${k}]`);
      const role = c.string(o.role, `${w}[${k}].role`);
      if (role !== "user" && role !== "assistant") c.fail(`${w}[${k}].role`, `expected "user" or "assistant", got "${role}"`);
      if (o.has_answer !== undefined && typeof o.has_answer !== "boolean") c.fail(`${w}[${k}].has_answer`, "expected true or false");
      return {
        speaker: role,
        text: c.string(o.content, `${w}[${k}].content`),
        hasAnswer: o.has_answer === undefined ? null : (o.has_answer as boolean),
        // Most turns have only these fields: their other fields are copied only when there are some.
        extra: hasOtherKeys(o) ? otherFields(o) : null,
      };
    });
    return { label: ids[j], date: dates[j], turns };
  });
  // In haystack_dates order (stable: sessions of the same time keep the file's order).
  const keys = dates.map(dateSortKey);
  const order = timeline.map((_, j) => j).sort((x, y) => cmp(keys[x], keys[y]) || x - y);
  const rest = Object.fromEntries(Object.entries(q).filter(([k]) => !KNOWN.has(k)));
  const evidence = c.keys(q.answer_session_ids ?? [], `${at}.answer_session_ids`);
  const listed = new Set(ids);
  return {
    id,
    timeline: order.map((j) => timeline[j]),
    reordered: order.some((j, k) => j !== k),
    repeated: [...new Set(ids.filter((x, j) => ids.indexOf(x) !== j))],
    missingEvidence: evidence.filter((x) => !listed.has(x)),
    qa: {
      itemKey: id,
      question: c.string(q.question, `${at}.question`),
      answer: c.text(q.answer, `${at}.answer`),
      questionType: type,
      evidence,
      questionDate: c.key(q.question_date, `${at}.question_date`),
      extra: Object.keys(rest).length ? rest : null,
    },
  };
}

export const REORDERED_WARNING = {
  code: "haystack-reordered",
  message: "haystacks not in date order in the file (the oracle file's are not sorted): stored in haystack_dates order",
};

export const REPEATED_WARNING = {
  code: "haystack-session-repeated",
  message:
    "haystacks that list one session id twice (the cleaned S file has 13, filler sessions at two dates): kept twice, as the file has them and the public code reads them",
};

export const MISSING_EVIDENCE_WARNING = {
  code: "answer-session-missing",
  message: "answer_session_ids not in the question's haystack: its retrieval recall cannot reach 1",
};

function hasOtherKeys(o: Record<string, unknown>): boolean {
  for (const k in o) if (k !== "role" && k !== "content" && k !== "has_answer") return true;
  return false;
}

function otherFields(o: Record<string, unknown>): Record<string, unknown> | null {
  const { role: _r, content: _c, has_answer: _h, ...rest } = o;
  return Object.keys(rest).length ? rest : null;
}

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
