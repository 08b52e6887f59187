/**
 * The one tokenizer of lexical retrieval (BM25, TF-IDF): Chinese is cut with jieba (the project's
 * instance from lib/metrics/segment.ts, so the dictionary loads once), English is lower-cased,
 * stripped of punctuation and stop words and, by default, Porter-stemmed. Mixed text works in both
 * languages: Chinese runs always go to jieba, Latin runs to the English rules.
 *
 * BLEU keeps its own segmentation (segment.ts); nothing here changes it.
 */
import { stemmer } from "stemmer";
import { jiebaCut } from "@/lib/metrics/segment";
import { CHINESE_STOP_WORDS, ENGLISH_STOP_WORDS } from "./stopwords";

export type RetrievalLanguage = "zh" | "en";

export interface TokenizerOptions {
  /**
   * "zh": the whole text goes through jieba (Latin words inside Chinese sentences are cut as jieba
   * cuts them, as BLEU sees them); "en": only runs of Chinese characters go through jieba, the rest is
   * split on non-word characters; "auto" (default): "zh" when at least half of the text's content is
   * Chinese (a Latin letter weighs a third of a character), else "en".
   */
  language?: RetrievalLanguage | "auto";
  /** Porter stemming of ASCII English words ("running" → "run"). Default true. */
  stem?: boolean;
  /** Drop the stop words of stopwords.ts. Default true. */
  stopWords?: boolean;
}

export type ResolvedTokenizerOptions = Required<TokenizerOptions>;

export const DEFAULT_TOKENIZER: ResolvedTokenizerOptions = { language: "auto", stem: true, stopWords: true };

export function resolveTokenizerOptions(opts: TokenizerOptions = {}): ResolvedTokenizerOptions {
  return {
    language: opts.language ?? DEFAULT_TOKENIZER.language,
    stem: opts.stem ?? DEFAULT_TOKENIZER.stem,
    stopWords: opts.stopWords ?? DEFAULT_TOKENIZER.stopWords,
  };
}

const CJK_CHAR = /[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]/;
const CJK_RUNS = /[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+|[^\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+/g;
/** A word: letters/digits, joined by inner apostrophes or dots ("don't", "3.5", "v1.2"). */
const WORD = /[\p{L}\p{N}]+(?:['’.][\p{L}\p{N}]+)*/gu;
const ASCII_LETTERS = /^[a-z]+$/;

function isCjkCode(c: number): boolean {
  return (c >= 0x4e00 && c <= 0x9fff) || (c >= 0x3400 && c <= 0x4dbf) || (c >= 0xf900 && c <= 0xfaff);
}

/** "zh" when Chinese characters make up at least half the content (Latin letters weigh 1/3 each). */
export function detectLanguage(text: string): RetrievalLanguage {
  let cjk = 0;
  let latin = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (isCjkCode(c)) cjk++;
    else if ((c | 32) >= 97 && (c | 32) <= 122) latin++;
  }
  const total = cjk + latin / 3;
  return total > 0 && cjk / total >= 0.5 ? "zh" : "en";
}

/** Normalised retrieval terms of one Latin (non-Chinese) piece of text. */
function latinTerms(piece: string, opts: ResolvedTokenizerOptions, out: string[]): void {
  for (const m of piece.toLowerCase().matchAll(WORD)) {
    // A possessive adds nothing to the word; other apostrophes are dropped ("don't" → "dont").
    let w = m[0].replace(/['’]s$/, "").replace(/['’]/g, "");
    if (w.length === 0) continue;
    if (opts.stopWords && ENGLISH_STOP_WORDS.has(w)) continue;
    if (opts.stem && ASCII_LETTERS.test(w)) w = stemmer(w);
    out.push(w);
  }
}

/** One jieba token: Chinese words are kept (minus stop words), anything else gets the Latin rules. */
function jiebaTerm(token: string, opts: ResolvedTokenizerOptions, out: string[]): void {
  if (CJK_CHAR.test(token)) {
    if (!(opts.stopWords && CHINESE_STOP_WORDS.has(token))) out.push(token);
  } else {
    latinTerms(token, opts, out);
  }
}

/**
 * Retrieval terms of a text, in text order, duplicates kept (term frequencies matter to BM25 and
 * TF-IDF). Full-width forms are folded first (NFKC), so "ＡＰＰ" and "APP" are one term.
 */
export function tokenize(text: string, options: TokenizerOptions = {}): string[] {
  const opts = resolveTokenizerOptions(options);
  const norm = text.normalize("NFKC");
  const lang = opts.language === "auto" ? detectLanguage(norm) : opts.language;
  const out: string[] = [];
  if (lang === "zh") {
    for (const token of jiebaCut(norm)) jiebaTerm(token, opts, out);
    return out;
  }
  for (const m of norm.matchAll(CJK_RUNS)) {
    const run = m[0];
    if (CJK_CHAR.test(run)) for (const token of jiebaCut(run)) jiebaTerm(token, opts, out);
    else latinTerms(run, opts, out);
  }
  return out;
}
