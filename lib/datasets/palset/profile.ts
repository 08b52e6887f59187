/**
 * The optional per-user profile files published beside PAL-Set (docs/data-formats.md), read leniently: the
 * English ones were machine translated, so keys come in any case, with `_` or spaces, singular or
 * plural, slightly misspelt, or in Chinese. What maps is normalised; what does not is kept as it was
 * and listed in the report. Then the links: situation → sample (by end timestamp), requirement ids
 * → topics, framework / solution preference entries → topics, dialogue templates → query topics.
 */
import path from "node:path";
import { dayOf, parseTimestamp } from "./timestamp";
import type { ReportBuilder } from "./report";

export const PROFILE_KINDS = [
  "background",
  "requirement",
  "preference",
  "situation",
  "requirement_framework",
  "solution_preference",
  "dialogue_template",
] as const;
export type ProfileKind = (typeof PROFILE_KINDS)[number];

/** The kind of a profile file from its name (`background_en.json`, `requirement-framework.json`, ...), or null for data files. */
export function profileKindOf(file: string): ProfileKind | null {
  const base = path
    .basename(file)
    .toLowerCase()
    .replace(/\.json$/, "")
    .replace(/[\s-]+/g, "_")
    .replace(/_(en|zh|cn)$/, "");
  return (PROFILE_KINDS as readonly string[]).includes(base) ? (base as ProfileKind) : null;
}

export type ProfileFile = { kind: ProfileKind; file: string; data: Record<string, unknown> };

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === "object" && !Array.isArray(v);

// ---- lenient key matching ----

/** lower case, `_`/`-`/spaces collapsed: "Health_Status" → "health status". */
function norm(k: string): string {
  return k
    .trim()
    .toLowerCase()
    .replace(/[\s_\-]+/g, " ");
}

function levenshtein(a: string, b: string): number {
  if (Math.abs(a.length - b.length) > 2) return 3;
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = cur;
  }
  return prev[b.length];
}

/** A matcher from aliases (already normalised) to canonical keys; English aliases of 5+ letters also match with up to 2 typos. */
function keyMatcher(aliases: Record<string, string[]>): (key: string) => string | null {
  const exact = new Map<string, string>();
  for (const [canon, list] of Object.entries(aliases)) for (const a of [canon, ...list]) exact.set(norm(a), canon);
  const fuzzy = [...exact.entries()].filter(([a]) => /^[a-z ]{5,}$/.test(a));
  return (key) => {
    const k = norm(key);
    const hit = exact.get(k) ?? exact.get(k.replace(/s$/, "")) ?? exact.get(`${k}s`);
    if (hit) return hit;
    if (!/^[a-z ]{5,}$/.test(k)) return null;
    let best: string | null = null;
    let bestD = 3;
    for (const [a, canon] of fuzzy) {
      const d = levenshtein(k, a);
      if (d < bestD) [best, bestD] = [canon, d];
    }
    return best;
  };
}

const backgroundKey = keyMatcher({
  name: ["姓名", "名字", "full name"],
  gender: ["sex", "性别"],
  age: ["年龄"],
  occupation: ["job", "profession", "career", "职业", "工作"],
  "health status": ["health", "health condition", "health state", "physical condition", "健康状况", "健康状态", "健康情况"],
  "family members": ["family", "family member", "family situation", "family status", "家庭成员", "家庭情况", "家庭"],
  hobbies: ["hobby", "interests", "hobbies and interests", "爱好", "兴趣爱好", "兴趣"],
  personality: ["personality traits", "character", "big five", "性格", "人格", "性格特征"],
});

const traitKey = keyMatcher({
  openness: ["openness to experience", "开放性"],
  conscientiousness: ["尽责性", "责任心", "严谨性", "尽职性"],
  extraversion: ["extroversion", "外向性"],
  agreeableness: ["宜人性", "亲和性"],
  neuroticism: ["神经质", "神经质性"],
});

const LEVELS: Record<string, string> = {
  low: "low",
  低: "low",
  较低: "low",
  medium: "medium",
  moderate: "medium",
  mid: "medium",
  middle: "medium",
  average: "medium",
  中: "medium",
  中等: "medium",
  适中: "medium",
  high: "high",
  高: "high",
  较高: "high",
};

const aspectKey = keyMatcher({
  work: ["工作", "career", "职业"],
  health: ["健康"],
  family: ["家庭"],
  leisure: ["休闲", "娱乐", "休闲娱乐", "hobby", "entertainment", "leisure time"],
});

// "analysis" (the reasoning behind a preference) is published too; not modelled, kept in profileRaw.
const prefKey = keyMatcher({
  requirement: ["requirement type", "需求", "需求类型"],
  preference: ["preferences", "偏好"],
  analysis: ["reasoning", "reason", "分析"],
});
const polarityKey = keyMatcher({ pos: ["positive", "正向", "积极", "正面"], neg: ["negative", "负向", "消极", "负面"] });

const situationKey = keyMatcher({
  start_timestamp: ["start time", "start", "开始时间"],
  end_timestamp: ["end time", "end", "结束时间"],
  requirement_ids: ["requirement id", "requirements", "需求id"],
  situation: ["情境", "描述"],
});

// ---- background / requirement types ----

/** background.json entry → English keys; personality levels → low/medium/high. Unmapped keys stay as they are. */
export function normaliseBackground(raw: Obj, where: string, rb: ReportBuilder): Obj {
  const out: Obj = {};
  for (const [k, v] of Object.entries(raw)) {
    const canon = backgroundKey(k);
    if (!canon) {
      rb.unrecognised(`background key ${JSON.stringify(k)}`, where);
      out[k] = v;
    } else if (canon === "personality" && isObj(v)) {
      const p: Obj = {};
      for (const [tk, tv] of Object.entries(v)) {
        const trait = traitKey(tk);
        if (!trait) rb.unrecognised(`background personality key ${JSON.stringify(tk)}`, where);
        const level = typeof tv === "string" ? LEVELS[norm(tv)] : undefined;
        if (!level) rb.unrecognised(`background personality value ${JSON.stringify(tv)}`, `${where}.${tk}`);
        p[trait ?? tk] = level ?? tv;
      }
      out.personality = p;
    } else out[canon] = v;
  }
  return out;
}

export type RequirementTypeRow = {
  aspect: string;
  typeKey: string;
  requirementType: string | null;
  preferencePos: string[] | null;
  preferenceNeg: string[] | null;
};

const asList = (v: unknown): string[] | null =>
  typeof v === "string" ? [v] : Array.isArray(v) ? v.map((x) => (typeof x === "string" ? x : JSON.stringify(x))) : null;

/** `{aspect: {typeKey: x}}` (or flat `{typeKey: x}` with keys like `work-2`) → [aspect, typeKey, x]. */
function typeEntries(kind: "requirement" | "preference", raw: Obj, where: string, rb: ReportBuilder): Array<[string, string, unknown]> {
  const out: Array<[string, string, unknown]> = [];
  for (const [ak, av] of Object.entries(raw)) {
    const flat = /^([a-z]+)[-_ ]?\d+$/i.exec(ak);
    if (flat && !isObj(av)) {
      out.push([aspectKey(flat[1]) ?? flat[1], ak, av]);
      continue;
    }
    if (flat && isObj(av) && ("requirement" in av || "preference" in av)) {
      out.push([aspectKey(flat[1]) ?? flat[1], ak, av]);
      continue;
    }
    const aspect = aspectKey(ak);
    if (!aspect) rb.unrecognised(`${kind} aspect ${JSON.stringify(ak)}`, where);
    if (!isObj(av)) {
      rb.unrecognised(`${kind} entry that is not an object of requirement types`, `${where}.${ak}`);
      continue;
    }
    for (const [tk, tv] of Object.entries(av)) out.push([aspect ?? ak, tk, tv]);
  }
  return out;
}

/** requirement.json + preference.json of one user → one row per requirement type. */
export function requirementTypes(
  requirement: Obj | null,
  preference: Obj | null,
  userKey: string,
  rb: ReportBuilder,
): RequirementTypeRow[] {
  const rows = new Map<string, RequirementTypeRow>();
  const row = (aspect: string, typeKey: string) => {
    let r = rows.get(typeKey);
    if (!r) rows.set(typeKey, (r = { aspect, typeKey, requirementType: null, preferencePos: null, preferenceNeg: null }));
    return r;
  };
  if (requirement) {
    for (const [aspect, typeKey, v] of typeEntries("requirement", requirement, userKey, rb)) {
      if (typeof v === "string") row(aspect, typeKey).requirementType = v;
      else rb.unrecognised("requirement type that is not a string", `${userKey}.${typeKey}`);
    }
  }
  if (preference) {
    for (const [aspect, typeKey, v] of typeEntries("preference", preference, userKey, rb)) {
      if (!isObj(v)) {
        rb.unrecognised("preference entry that is not an object", `${userKey}.${typeKey}`);
        continue;
      }
      const r = row(aspect, typeKey);
      for (const [k, x] of Object.entries(v)) {
        const canon = prefKey(k);
        if (canon === "requirement" && typeof x === "string") r.requirementType ??= x;
        else if (canon === "preference" && isObj(x)) {
          for (const [pk, pv] of Object.entries(x)) {
            const pol = polarityKey(pk);
            if (pol === "pos") r.preferencePos = asList(pv);
            else if (pol === "neg") r.preferenceNeg = asList(pv);
            else rb.unrecognised(`preference polarity key ${JSON.stringify(pk)}`, `${userKey}.${typeKey}`);
          }
        } else if (canon !== "analysis") rb.unrecognised(`preference key ${JSON.stringify(k)}`, `${userKey}.${typeKey}`);
      }
    }
  }
  return [...rows.values()];
}

// ---- links to samples and topics ----

/** What the linker needs of a sample. */
export type SampleRef = { sampleKey: string; dialogueAt: number | null; topicKeys: string[] };

export type TopicLinks = {
  requirementTypeKey: string | null;
  framework: Obj | null;
  solutionPreference: Obj | null;
  dialogueTemplate: Obj | null;
};
export type SampleLinks = { situation: Obj | null; topics: TopicLinks[] };

/** "topic-1", "topic_1", "Topic 1", "1" → "1": topic keys compared by number. */
function topicNo(k: string): string {
  const m = /(\d+)\s*$/.exec(k);
  return m ? m[1] : k;
}

/** Per-sample links of one user, from the user's entries in the date-keyed files. Unlinked entries are returned for profileRaw. */
export function linkUser(
  userKey: string,
  samples: SampleRef[],
  src: { situation?: unknown; requirement_framework?: unknown; solution_preference?: unknown },
  rb: ReportBuilder,
): { links: SampleLinks[]; unlinked: Obj } {
  const links: SampleLinks[] = samples.map((s) => ({
    situation: null,
    topics: s.topicKeys.map(() => ({ requirementTypeKey: null, framework: null, solutionPreference: null, dialogueTemplate: null })),
  }));
  const unlinked: Obj = {};
  const byAt = new Map<number, number>();
  const byDay = new Map<string, number | -1>(); // -1: two samples that day, ambiguous
  samples.forEach((s, i) => {
    if (s.dialogueAt === null) return;
    byAt.set(s.dialogueAt, i);
    const d = dayOf(s.dialogueAt);
    byDay.set(d, byDay.has(d) ? -1 : i);
  });
  const byDateKey = new Map<string, number>();

  /** A date key (or datetime) → sample index: the situation's link first, then exact time, then the day. */
  const sampleOfKey = (key: string): number | null => {
    const linked = byDateKey.get(key);
    if (linked !== undefined) return linked;
    const t = parseTimestamp(key);
    if (t === null) return null;
    const exact = byAt.get(t);
    if (exact !== undefined) return exact;
    const day = byDay.get(dayOf(t));
    return day === undefined || day === -1 ? null : day;
  };

  if (isObj(src.situation)) {
    const kept: Obj = {};
    for (const [dateKey, entry] of Object.entries(src.situation)) {
      if (!isObj(entry)) {
        rb.unrecognised("situation entry that is not an object", `${userKey}.${dateKey}`);
        kept[dateKey] = entry;
        continue;
      }
      const fields: Obj = {};
      for (const [k, v] of Object.entries(entry)) {
        const canon = situationKey(k);
        if (!canon) rb.unrecognised(`situation key ${JSON.stringify(k)}`, `${userKey}.${dateKey}`);
        fields[canon ?? k] = v;
      }
      const end = typeof fields.end_timestamp === "string" ? parseTimestamp(fields.end_timestamp) : null;
      let idx = end !== null ? byAt.get(end) : undefined;
      // A minute-precision end timestamp still names the sample's dialogue minute.
      if (idx === undefined && end !== null) idx = byAt.get(Math.floor(end / 60_000) * 60_000);
      if (idx === undefined || links[idx].situation) {
        kept[dateKey] = entry;
        rb.count("situationsUnlinked");
        continue;
      }
      links[idx].situation = entry;
      byDateKey.set(dateKey, idx);
      rb.count("situationsLinked");
      const ids = fields.requirement_ids;
      if (Array.isArray(ids)) {
        ids.forEach((id, i) => {
          if (i < links[idx].topics.length && typeof id === "string") links[idx].topics[i].requirementTypeKey = id;
        });
        if (ids.length !== links[idx].topics.length) {
          rb.warn(
            "requirement-ids-count",
            "situation's requirement_ids count differs from the sample's topic count",
            `situation ${userKey}.${dateKey}: ${ids.length} ids, ${links[idx].topics.length} topics`,
          );
        }
      }
    }
    if (Object.keys(kept).length) unlinked.situation = kept;
  }

  for (const kind of ["requirement_framework", "solution_preference"] as const) {
    const data = src[kind];
    if (!isObj(data)) continue;
    const field = kind === "requirement_framework" ? "framework" : "solutionPreference";
    const counter = kind === "requirement_framework" ? "frameworks" : "solutionPreferences";
    const kept: Obj = {};
    for (const [dateKey, entry] of Object.entries(data)) {
      const idx = sampleOfKey(dateKey);
      if (idx === null || !isObj(entry)) {
        kept[dateKey] = entry;
        rb.count(`${counter}Unlinked`);
        continue;
      }
      const byNo = new Map(samples[idx].topicKeys.map((k, i) => [topicNo(k), i]));
      for (const [tk, tv] of Object.entries(entry)) {
        const ti = byNo.get(topicNo(tk));
        if (ti === undefined || !isObj(tv)) {
          ((kept[dateKey] ??= {}) as Obj)[tk] = tv;
          rb.warn(
            "profile-unlinked",
            "profile entry without a matching topic (kept in the user's profile)",
            `${kind} ${userKey}.${dateKey}.${tk}`,
          );
          continue;
        }
        links[idx].topics[ti][field] = tv;
        rb.count(`${counter}Linked`);
      }
    }
    if (Object.keys(kept).length) unlinked[kind] = kept;
  }
  return { links, unlinked };
}

/** dialogue_template.json keys: `<sample_id>_topic-<n>` → [sample id, topic key]. */
export function splitTemplateKey(key: string): [string, string] | null {
  const m = /^(.*)_(topic[-_ ]?\d+)$/i.exec(key);
  return m ? [m[1], m[2]] : null;
}

export { topicNo, isObj };
