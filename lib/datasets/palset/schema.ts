/**
 * The published PAL-Set shape (docs/data-formats.md) as zod schemas, the checks zod alone does not express
 * (turn key order, unique sample ids), and the formatter that turns the first problem into the
 * one-line message the CLI prints: `0003.json: 0003.history[1] (0003_sample1).logs[5].timestamp:
 * "yesterday" is not a timestamp (...)`.
 *
 * Objects are loose: unknown keys are valid and kept (see extra.ts). The parsed output is never used
 * for writing, only the verdict: the importer reads the original objects, so key order survives.
 */
import { z } from "zod";
import { isTimestamp } from "./timestamp";
import { DatasetError } from "../types";

/** The modelled keys of each level, in the published order (export writes them in this order). */
export const KEYS = {
  user: ["history", "query"],
  sample: ["sample_id", "dialogue_timestamp", "logs", "dialogue", "topics"],
  log: ["timestamp", "content"],
  turn: ["user", "assistant"],
  utterance: ["action", "content"],
  topic: ["user_query", "implicit_needs", "requirement", "solution", "candidate_solutions"],
  solution: ["pos", "neg"],
  candidate: ["solution", "feedback"],
} as const;

export const FEEDBACK_VALUES = ["pos", "neg", "neu"] as const;

const text = z.string();

const timestamp = z
  .string()
  .refine(isTimestamp, { error: (iss) => `${show(iss.input)} is not a timestamp (expected YYYY-MM-DD HH:MM or YYYY-MM-DD HH:MM:SS)` });

export const logSchema = z.looseObject({ timestamp, content: text });

export const utteranceSchema = z.looseObject({ action: text, content: text });

export const turnSchema = z.looseObject({ user: utteranceSchema, assistant: utteranceSchema });

/** `turn_1`, `turn_2`, ... in this order, nothing else. */
export const dialogueSchema = z.record(z.string(), turnSchema).superRefine((dialogue, ctx) => {
  // A key that is no turn key at all is named first: otherwise a renamed `turn_1` (which JSON
  // parsers keep in file order, often last) would be reported as the turn after it being out of place.
  for (const key in dialogue) {
    if (!/^turn_[1-9][0-9]*$/.test(key)) {
      ctx.addIssue({
        code: "custom",
        path: [key],
        input: key,
        message: `unexpected key ${show(key)} (turn keys are turn_1, turn_2, … in order)`,
      });
      return;
    }
  }
  let i = 0;
  for (const key in dialogue) {
    i++;
    if (key !== `turn_${i}`) {
      ctx.addIssue({
        code: "custom",
        path: [key],
        input: key,
        message: `unexpected key ${show(key)} at position ${i} (expected "turn_${i}": turn keys are turn_1, turn_2, … in order)`,
      });
      return;
    }
  }
});

export const candidateSchema = z.looseObject({
  solution: text,
  feedback: z.enum(FEEDBACK_VALUES, { error: (iss) => `${show(iss.input)} is not one of pos, neg, neu` }),
});

export const topicSchema = z.looseObject({
  user_query: text,
  implicit_needs: z.array(text).length(2, { error: (iss) => `expected exactly 2 implicit needs, got ${(iss.input as unknown[]).length}` }),
  requirement: text,
  solution: z.looseObject({ pos: z.array(text), neg: z.array(text) }),
  candidate_solutions: z.array(candidateSchema),
});

export const sampleSchema = z.looseObject({
  sample_id: text,
  dialogue_timestamp: timestamp,
  logs: z.array(logSchema),
  dialogue: dialogueSchema,
  topics: z.record(z.string(), topicSchema),
});

/** One user's object: `{history: [sample...], query: [sample...]}`; sample ids unique within the user. */
export const userSchema = z.looseObject({ history: z.array(sampleSchema), query: z.array(sampleSchema) }).superRefine((user, ctx) => {
  const seen = new Map<string, string>();
  for (const split of KEYS.user) {
    user[split].forEach((s, i) => {
      const where = `${split}[${i}]`;
      const first = seen.get(s.sample_id);
      if (first !== undefined) {
        ctx.addIssue({
          code: "custom",
          path: [split, i, "sample_id"],
          input: s.sample_id,
          message: `duplicate sample id ${show(s.sample_id)} (also at ${first})`,
        });
      } else seen.set(s.sample_id, where);
    });
  }
});

// ---- published types (what a valid file holds) ----
export type PalLog = z.infer<typeof logSchema>;
export type PalUtterance = z.infer<typeof utteranceSchema>;
export type PalTurn = z.infer<typeof turnSchema>;
export type PalCandidate = z.infer<typeof candidateSchema>;
export type PalTopic = z.infer<typeof topicSchema>;
export type PalSample = z.infer<typeof sampleSchema>;
export type PalUser = z.infer<typeof userSchema>;
export type PalSet = Record<string, PalUser>;

// ---- messages ----

/** A value as a message shows it: JSON, cut short, always one line. */
export function show(v: unknown): string {
  if (v === undefined) return "nothing";
  if (Array.isArray(v)) return `an array of ${v.length}`;
  if (v !== null && typeof v === "object") return "an object";
  const s = JSON.stringify(v);
  return s.length > 60 ? `${s.slice(0, 57)}…"` : s;
}

function describe(v: unknown): string {
  if (v === undefined) return "nothing";
  if (v === null) return "null";
  if (Array.isArray(v)) return "an array";
  if (typeof v === "object") return "an object";
  return `${typeof v} ${show(v)}`;
}

const ARTICLE: Record<string, string> = {
  string: "a string",
  array: "an array",
  object: "an object",
  record: "an object",
  number: "a number",
};

/** `0003.history[1] (0003_sample1).logs[5].timestamp`: the user id, then the JSON path; a sample's id beside its index. */
export function formatPath(userKey: string, user: unknown, path: readonly PropertyKey[]): string {
  let out = userKey;
  for (let i = 0; i < path.length; i++) {
    const seg = path[i];
    if (typeof seg === "number") {
      out += `[${seg}]`;
      const split = path[i - 1];
      if (i === 1 && (split === "history" || split === "query")) {
        const id = (user as Record<string, Array<{ sample_id?: unknown }>>)?.[split]?.[seg]?.sample_id;
        if (typeof id === "string") out += ` (${id})`;
      }
    } else {
      const key = String(seg);
      out += /^[A-Za-z_$][\w$-]*$/.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`;
    }
  }
  return out;
}

/** What went wrong, from a zod issue. */
export function issueReason(issue: z.core.$ZodIssue): string {
  const input = (issue as { input?: unknown }).input;
  switch (issue.code) {
    case "invalid_type": {
      const expected = ARTICLE[issue.expected] ?? issue.expected;
      return input === undefined ? `missing (expected ${expected})` : `expected ${expected}, got ${describe(input)}`;
    }
    case "invalid_value":
      return issue.message.startsWith("Invalid") ? `${show(input)} is not one of ${issue.values.map(String).join(", ")}` : issue.message;
    default:
      return issue.message;
  }
}

/** The one-line message of a file's first problem in a user's object. */
export function formatIssue(file: string, userKey: string, user: unknown, issue: z.core.$ZodIssue): string {
  return oneLine(`${file}: ${formatPath(userKey, user, issue.path)}: ${issueReason(issue)}`);
}

export function oneLine(s: string): string {
  return s.replace(/[\r\n]+/g, " ");
}

/**
 * The same verdict as `userSchema`, without building zod's output copy of every object: a full
 * data set is ~700k objects, and zod's pass plus the garbage it leaves cost about a tenth of the
 * whole import. Only a yes/no: when it says no, zod runs on that user for the message. A property
 * test (schema.test.ts) checks that both agree on mutated data.
 */
export function isValidUserFast(user: unknown): boolean {
  if (!isObject(user)) return false;
  const u = user as Record<string, unknown>;
  const seen = new Set<string>();
  for (const split of KEYS.user) {
    const list = u[split];
    if (!Array.isArray(list)) return false;
    for (const s of list) {
      if (!isSampleFast(s) || seen.has(s.sample_id as string)) return false;
      seen.add(s.sample_id as string);
    }
  }
  return true;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const isPlain = (v: unknown): v is Record<string, unknown> => {
  if (!isObject(v)) return false;
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
};
const allStrings = (v: unknown): boolean => Array.isArray(v) && v.every((x) => typeof x === "string");

function isSampleFast(s: unknown): s is Record<string, unknown> {
  if (!isObject(s)) return false;
  if (typeof s.sample_id !== "string" || typeof s.dialogue_timestamp !== "string" || !isTimestamp(s.dialogue_timestamp)) return false;
  const logs = s.logs;
  if (!Array.isArray(logs)) return false;
  for (const l of logs) {
    if (!isObject(l) || typeof l.timestamp !== "string" || typeof l.content !== "string" || !isTimestamp(l.timestamp)) return false;
  }
  const dialogue = s.dialogue;
  if (!isPlain(dialogue)) return false;
  let i = 0;
  for (const k in dialogue) {
    if (k !== `turn_${++i}`) return false;
    const t = dialogue[k];
    if (!isObject(t)) return false;
    for (const role of KEYS.turn) {
      const x = t[role];
      if (!isObject(x) || typeof x.action !== "string" || typeof x.content !== "string") return false;
    }
  }
  const topics = s.topics;
  if (!isPlain(topics)) return false;
  for (const k in topics) {
    const t = topics[k];
    if (!isObject(t) || typeof t.user_query !== "string" || typeof t.requirement !== "string") return false;
    if (!allStrings(t.implicit_needs) || (t.implicit_needs as unknown[]).length !== 2) return false;
    const sol = t.solution;
    if (!isObject(sol) || !allStrings(sol.pos) || !allStrings(sol.neg)) return false;
    const cands = t.candidate_solutions;
    if (!Array.isArray(cands)) return false;
    for (const c of cands) {
      if (!isObject(c) || typeof c.solution !== "string" || !(FEEDBACK_VALUES as readonly unknown[]).includes(c.feedback)) return false;
    }
  }
  return true;
}

/** Validates one user's object; throws the DatasetError naming file, user, sample and path. */
export function validateUser(file: string, userKey: string, user: unknown): asserts user is PalUser {
  if (isValidUserFast(user)) return;
  const r = userSchema.safeParse(user, { reportInput: true });
  if (!r.success) throw new DatasetError(formatIssue(file, userKey, user, r.error.issues[0]));
  // Unreachable while the two validators agree; never accept what the fast one refused.
  throw new DatasetError(`${file}: ${userKey}: not a valid PAL-Set user object`);
}

/** The top level of a data file: an object keyed by user id. Returns its user ids. */
export function checkTopLevel(file: string, data: unknown): string[] {
  if (data === null || typeof data !== "object" || Array.isArray(data)) {
    throw new DatasetError(`${file}: expected an object keyed by user id, got ${describe(data)}`);
  }
  const keys = Object.keys(data);
  if (keys.length === 0) throw new DatasetError(`${file}: no users (expected an object keyed by user id)`);
  return keys;
}
