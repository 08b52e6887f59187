/**
 * Reading an item's content for a judge prompt. Uploaded files are free-form (user_info may be a text, a
 * list or an object); items made from PAL Studio data carry the fields under the papers' names.
 */
import type { NeedEntry, PreferenceJudgeInput, RequirementJudgeInput, SolutionEntry, Utterance } from "@/lib/judges/dialogue-pair";
import type { QaMetadata } from "@/lib/judges/hicupid";
import type { Lang } from "@/lib/llm/types";

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);
const text = (v: unknown): string => (v == null ? "" : typeof v === "string" ? v : JSON.stringify(v, null, 2));
const strings = (v: unknown): string[] => (Array.isArray(v) ? v.map(text) : v == null || v === "" ? [] : [text(v)]);
const posNeg = (v: unknown, pos?: unknown): { pos: string[]; neg: string[] } =>
  isObj(v) ? { pos: strings(v.pos ?? v.pos_list), neg: strings(v.neg ?? v.neg_list) } : { pos: strings(pos), neg: [] };
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : v == null || v === "" ? [] : [v]);
/** Needs as PAL-Set's requirement framework gives them ({need, evidence}) stay objects; anything else is text. */
const needs = (v: unknown): NeedEntry[] =>
  list(v).map((e) =>
    isObj(e) && typeof e.need === "string"
      ? { need: e.need, ...(typeof e.evidence === "string" ? { evidence: e.evidence } : {}) }
      : text(e),
  );
const solution = (e: unknown): SolutionEntry =>
  isObj(e) && typeof e.solution === "string"
    ? { solution: e.solution, ...(typeof e.reason === "string" ? { reason: e.reason } : {}) }
    : text(e);
/** Solutions as the solution preference gives them ({solution, reason}) stay objects. */
const solutions = (v: unknown): { pos: SolutionEntry[]; neg: SolutionEntry[] } =>
  isObj(v) ? { pos: list(v.pos ?? v.pos_list).map(solution), neg: list(v.neg ?? v.neg_list).map(solution) } : { pos: [], neg: [] };

/** Chinese when the text has more CJK ideographs than Latin letters. */
export function detectLang(value: unknown): Lang {
  const s = text(value);
  const cjk = (s.match(/[\u4e00-\u9fff]/g) ?? []).length;
  const latin = (s.match(/[A-Za-z]/g) ?? []).length;
  return cjk > latin / 4 ? "zh" : "en";
}

/** The user information the pairwise dialogue judge gets, from a pairwise item's content. */
export function dialogueJudgeInput(content: Obj): RequirementJudgeInput & PreferenceJudgeInput {
  const info = content.userInfo;
  const u: Obj = isObj(info) ? info : { background: info };
  return {
    background: text(u.background ?? u.profile),
    personality: text(u.personality),
    situation: text(u.situation),
    userQuery: text(u.user_query ?? u.userQuery ?? content.topic),
    implicitNeeds: needs(u.implicit_needs ?? u.implicitNeeds),
    requirement: text(u.requirement),
    generalPreference: posNeg(u.general_preference ?? u.generalPreference, u.preferences),
    solutions: solutions(u.solutions ?? u.candidate_solutions),
  };
}

/** A dialogue output as utterances (a plain text output becomes one assistant turn). */
export function utterances(output: unknown): Utterance[] {
  if (Array.isArray(output))
    return output.map((t) => ({ role: (t as Obj).role === "user" ? "user" : "assistant", content: text((t as Obj).content) }));
  return [{ role: "assistant", content: text(output) }];
}

/**
 * A HiCUPID item's metadata for the A/B judge: HiCUPID's own {persona, profile} object as it is; a free
 * text (an uploaded file's) is shown as the persona line.
 */
export function hicupidJudgeInput(content: Obj): { type: "persona" | "profile"; metadata: QaMetadata } {
  const m = content.metadata;
  if (isObj(m) && (isObj(m.persona) || isObj(m.profile)))
    return { type: isObj(m.profile) ? "profile" : "persona", metadata: m as QaMetadata };
  return { type: "persona", metadata: { persona: { entity: text(m) } } };
}
