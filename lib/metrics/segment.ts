/**
 * Word segmentation for the Mem-PAL BLEU recipe (docs/metrics.md): jieba's default accurate cut with HMM on,
 * bundled dictionary. Whitespace tokens are kept by default, as Mem-PAL's metrics.py keeps them (it scores
 * `list(jieba.cut(text))`, and jieba returns each space of English text as a token); dropping them is a
 * labelled option.
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

/**
 * @node-rs/jieba's HMM fallback splits non-Chinese runs with `[a-zA-Z0-9]+(?:.\d+)?%?`, where Python
 * jieba (the papers' recipe) has `\.`: so "3-5", "2024-01", "A_1" and "5%3" stay one token in the
 * Rust port but are cut at the separator in Python. Such a token (no dictionary word has this shape)
 * is cut again the Python way. Left as it is: a digit tail that Python would join with letters
 * following in the same run ("ab-12cd": Python "12cd", here "12" | "cd").
 */
const RUST_DOT = /^([a-zA-Z0-9]+)([^a-zA-Z0-9.])(\d+%?)$/;

function isAsciiAlnum(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
}

/** Python jieba's split of one token that the Rust port's regex kept whole (see RUST_DOT). */
function pythonSplit(token: string): string[] | null {
  if (!isAsciiAlnum(token.charCodeAt(0))) return null;
  const m = RUST_DOT.exec(token);
  if (!m) return null;
  // "%" belongs to the number before it in Python's pattern (`...%?`).
  return m[2] === "%" ? [m[1] + "%", m[3]] : [m[1], m[2], m[3]];
}

/** jieba's accurate cut, HMM on, as Python jieba 0.42 cuts it (see pythonSplit). */
export function jiebaCut(text: string): string[] {
  const raw = jieba().cut(text, true);
  let out: string[] | null = null;
  for (let i = 0; i < raw.length; i++) {
    const split = pythonSplit(raw[i]);
    if (split && !out) out = raw.slice(0, i);
    if (out) {
      if (split) out.push(...split);
      else out.push(raw[i]);
    }
  }
  return out ?? raw;
}

export type SegmentOptions = {
  /**
   * "keep" (default, Mem-PAL's metrics.py): jieba's whitespace tokens stay, one per space (English text
   * scores its spaces as matching unigrams); "drop": whitespace-only tokens are removed (the project's
   * earlier recipe, kept as an option).
   */
  whitespace?: "keep" | "drop";
};

/** jieba accurate mode, HMM on; whitespace tokens kept unless `whitespace: "drop"`. */
export function segment(text: string, opts: SegmentOptions = {}): string[] {
  const raw = jiebaCut(text);
  if ((opts.whitespace ?? "keep") === "keep") return raw;
  let blank = 0;
  for (let i = 0; i < raw.length; i++) if (isBlankToken(raw[i])) blank++;
  if (blank === 0) return raw;
  const out = new Array<string>(raw.length - blank);
  let j = 0;
  for (let i = 0; i < raw.length; i++) if (!isBlankToken(raw[i])) out[j++] = raw[i];
  return out;
}
