/**
 * Word segmentation for the Mem-PAL BLEU recipe (SPEC §3): jieba's default accurate cut with HMM on,
 * bundled dictionary, whitespace-only tokens dropped.
 */
import { Jieba } from "@node-rs/jieba";
import { dict } from "@node-rs/jieba/dict.js";

let instance: Jieba | undefined;

/** The process-wide jieba instance; loading the dictionary (~0.2 s) dominates startup, so it happens once. */
export function jieba(): Jieba {
  if (!instance) instance = Jieba.withDict(dict);
  return instance;
}

/**
 * Python's `str.isspace()` set, not JavaScript's `\s`: the reference recipe filters in Python, and the
 * two differ (Python counts U+001C..U+001F and U+0085, JavaScript counts U+FEFF).
 */
const PY_WHITESPACE_ONLY = /^[\t\n\v\f\r\x1c-\x1f \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+$/;

/** True when a token is empty or made only of (Python) whitespace. */
export function isBlankToken(token: string): boolean {
  return token.length === 0 || PY_WHITESPACE_ONLY.test(token);
}

/** jieba accurate mode, HMM on, without whitespace-only tokens (English text yields spaces as tokens). */
export function segment(text: string): string[] {
  const raw = jieba().cut(text, true);
  let blank = 0;
  for (let i = 0; i < raw.length; i++) if (isBlankToken(raw[i])) blank++;
  if (blank === 0) return raw;
  const out = new Array<string>(raw.length - blank);
  let j = 0;
  for (let i = 0; i < raw.length; i++) if (!isBlankToken(raw[i])) out[j++] = raw[i];
  return out;
}
