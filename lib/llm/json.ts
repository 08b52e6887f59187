import type { z } from "zod";
import { LanguageCounter } from "./language";
import type { Lang } from "./types";

/**
 * Model replies promise JSON but often wrap it: code fences, a sentence before or after, trailing
 * commentary. This finds the JSON value in such a reply; it never repairs a broken value.
 */
export function extractJson(text: string): unknown {
  const candidates: string[] = [];
  for (const m of text.matchAll(/```(?:json|JSON)?\s*\n?([\s\S]*?)```/g)) candidates.push(m[1].trim());
  candidates.push(text.trim());
  for (const c of candidates) {
    try {
      return JSON.parse(c);
    } catch {
      /* look inside */
    }
    const inner = firstBalanced(c);
    if (inner !== null) {
      try {
        return JSON.parse(inner);
      } catch {
        /* next candidate */
      }
    }
  }
  throw new Error("the reply contains no JSON value");
}

/** The first balanced {...} or [...] span, honouring strings and escapes. */
function firstBalanced(s: string): string | null {
  for (let start = 0; start < s.length; start++) {
    const open = s[start];
    if (open !== "{" && open !== "[") continue;
    const stack: string[] = [];
    let inString = false;
    for (let i = start; i < s.length; i++) {
      const ch = s[i];
      if (inString) {
        if (ch === "\\") i++;
        else if (ch === '"') inString = false;
        continue;
      }
      if (ch === '"') inString = true;
      else if (ch === "{" || ch === "[") stack.push(ch === "{" ? "}" : "]");
      else if (ch === "}" || ch === "]") {
        if (stack.pop() !== ch) break;
        if (stack.length === 0) return s.slice(start, i + 1);
      }
    }
  }
  return null;
}

/** Every string inside a value, for the language check. */
function strings(v: unknown, out: string[] = []): string[] {
  if (typeof v === "string") out.push(v);
  else if (Array.isArray(v)) for (const x of v) strings(x, out);
  else if (v && typeof v === "object") for (const x of Object.values(v)) strings(x, out);
  return out;
}

/**
 * Whether text is in the other language than expected. Short texts (ids, numbers, a name) say
 * nothing about language and pass.
 */
export function isWrongLanguage(value: unknown, language: Lang): boolean {
  const c = new LanguageCounter();
  for (const s of strings(value)) c.add(s);
  if (c.cjk + c.latin * 3 < 8) return false;
  return c.language() !== language;
}

export type Checked<T> = { ok: true; value: T } | { ok: false; error: string };

/** What a reply must be: JSON a schema accepts, or text a parse function accepts; in a language. */
export type ReplyRule<T> = { schema?: z.ZodType<T>; parse?: (text: string) => T; language?: Lang };

/**
 * Parses and validates one reply: JSON (when a schema is given) and the schema, or the parse function
 * (free text: it throws with what is wrong), and the language.
 */
export function checkReply<T>(raw: string, rule: ReplyRule<T>): Checked<T> {
  const { schema, parse, language } = rule;
  let value: unknown = raw;
  if (schema) {
    try {
      value = extractJson(raw);
    } catch (e) {
      return { ok: false, error: (e as Error).message };
    }
    const r = schema.safeParse(value);
    if (!r.success) {
      const issue = r.error.issues[0];
      return { ok: false, error: `the reply does not match the expected JSON: ${issue.path.join(".") || "(root)"}: ${issue.message}` };
    }
    value = r.data;
  } else if (!raw.trim()) {
    return { ok: false, error: "the reply is empty" };
  }
  // A free-text reply's language is judged on the whole text, before the parser reduces it.
  if (language && isWrongLanguage(value, language))
    return { ok: false, error: `the reply is not in the data set's language (${language})` };
  if (parse && !schema) {
    try {
      value = parse(raw);
    } catch (e) {
      return { ok: false, error: e instanceof Error ? e.message : String(e) };
    }
  }
  return { ok: true, value: value as T };
}
