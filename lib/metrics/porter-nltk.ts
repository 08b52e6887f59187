/**
 * Porter's stemmer in the mode LoCoMo's public evaluation uses: NLTK's PorterStemmer with its default
 * NLTK_EXTENSIONS (task_eval/evaluation.py, commit 9228632, stems every answer token with it). Written here
 * from the algorithm (M. F. Porter, "An algorithm for suffix stripping", 1980) and the documented
 * departures of that mode (NLTK's nltk.stem.porter docstring and docs/metrics.md), not from NLTK's code:
 *
 * - a table of irregular forms answered as they are ("skies" → "sky", "dying" → "die", "news" → "news", ...);
 * - words of one or two letters are left alone;
 * - step 1a: "ies" of a four-letter word → "ie" ("ties" → "tie"); step 1b: "ied" likewise ("died" → "die",
 *   longer words "ied" → "i");
 * - the *o condition (consonant-vowel-consonant, the last not w, x or y) also holds for a two-letter stem of a
 *   vowel then a consonant ("us" in "used" → "use");
 * - step 1c: "y" → "i" only after a consonant that is not the word's first letter ("cry" → "cri", "say" stays);
 * - step 2: "alli" → "al" and the step again; "bli" → "ble", "logi" → "log" (Porter's later corrections),
 *   "fulli" → "ful". NLTK's docstring also names "lessli" → "less", which NLTK 3.8 never applies ("hopelessly" →
 *   "hopelessli"): as NLTK runs, not as the docstring says, since the scores must equal the public code's.
 *
 * lib/metrics/porter-nltk.test.ts checks every rule on its words and, where a Python with NLTK is installed,
 * the stems of a broad word list against NLTK's own.
 */

/** Irregular forms the mode answers from a table (word → stem). */
const IRREGULAR: Record<string, string> = {
  skies: "sky",
  sky: "sky",
  dying: "die",
  lying: "lie",
  tying: "tie",
  news: "news",
  innings: "inning",
  inning: "inning",
  outings: "outing",
  outing: "outing",
  cannings: "canning",
  canning: "canning",
  howe: "howe",
  proceed: "proceed",
  exceed: "exceed",
  succeed: "succeed",
};

const VOWELS = "aeiou";

/** Porter's consonant: not a, e, i, o, u, and not a "y" after a consonant (a leading "y" is one). */
function isConsonant(w: string, i: number): boolean {
  const c = w[i];
  if (VOWELS.includes(c)) return false;
  if (c === "y") return i === 0 ? true : !isConsonant(w, i - 1);
  return true;
}

/** m in [C](VC)^m[V]: the number of vowel-consonant sequences. */
function measure(stem: string): number {
  let m = 0;
  let prevVowel = false;
  for (let i = 0; i < stem.length; i++) {
    const vowel = !isConsonant(stem, i);
    if (!vowel && prevVowel) m++;
    prevVowel = vowel;
  }
  return m;
}

const hasVowel = (stem: string) => [...stem].some((_, i) => !isConsonant(stem, i));

const endsDoubleConsonant = (w: string) => w.length >= 2 && w[w.length - 1] === w[w.length - 2] && isConsonant(w, w.length - 1);

/** *o: ends consonant-vowel-consonant, the last not w, x or y; in this mode also a two-letter vowel-consonant stem. */
function endsCvc(w: string): boolean {
  const n = w.length;
  if (n >= 3 && isConsonant(w, n - 3) && !isConsonant(w, n - 2) && isConsonant(w, n - 1) && !"wxy".includes(w[n - 1])) return true;
  return n === 2 && !isConsonant(w, 0) && isConsonant(w, 1);
}

type Rule = readonly [suffix: string, replacement: string, condition: (stem: string) => boolean];

const positive = (stem: string) => measure(stem) > 0;
const aboveOne = (stem: string) => measure(stem) > 1;

/**
 * The first rule whose suffix the word ends with decides: applied when its condition holds on the stem,
 * else the word is left as it is (Porter: only the longest matching suffix is considered).
 */
function applyFirst(word: string, rules: readonly Rule[]): string {
  for (const [suffix, rep, cond] of rules) {
    if (!word.endsWith(suffix)) continue;
    const stem = word.slice(0, word.length - suffix.length);
    return cond(stem) ? stem + rep : word;
  }
  return word;
}

function step1a(w: string): string {
  if (w.endsWith("ies") && w.length === 4) return w.slice(0, -3) + "ie";
  if (w.endsWith("sses")) return w.slice(0, -2);
  if (w.endsWith("ies")) return w.slice(0, -2);
  if (w.endsWith("ss")) return w;
  if (w.endsWith("s")) return w.slice(0, -1);
  return w;
}

function step1b(w: string): string {
  if (w.endsWith("ied")) return w.length === 4 ? w.slice(0, -3) + "ie" : w.slice(0, -3) + "i";
  if (w.endsWith("eed")) return positive(w.slice(0, -3)) ? w.slice(0, -1) : w;
  let stem: string | null = null;
  if (w.endsWith("ed") && hasVowel(w.slice(0, -2))) stem = w.slice(0, -2);
  else if (w.endsWith("ing") && hasVowel(w.slice(0, -3))) stem = w.slice(0, -3);
  if (stem === null) return w;
  // What the removal leaves is tidied: restore an "e", or undouble a final consonant.
  if (stem.endsWith("at") || stem.endsWith("bl") || stem.endsWith("iz")) return stem + "e";
  if (endsDoubleConsonant(stem) && !"lsz".includes(stem[stem.length - 1])) return stem.slice(0, -1);
  if (measure(stem) === 1 && endsCvc(stem)) return stem + "e";
  return stem;
}

function step1c(w: string): string {
  return w.endsWith("y") && w.length > 2 && isConsonant(w, w.length - 2) ? w.slice(0, -1) + "i" : w;
}

const STEP2: readonly Rule[] = [
  ["ational", "ate", positive],
  ["tional", "tion", positive],
  ["enci", "ence", positive],
  ["anci", "ance", positive],
  ["izer", "ize", positive],
  ["bli", "ble", positive],
  ["alli", "al", positive],
  ["entli", "ent", positive],
  ["eli", "e", positive],
  ["ousli", "ous", positive],
  ["ization", "ize", positive],
  ["ation", "ate", positive],
  ["ator", "ate", positive],
  ["alism", "al", positive],
  ["iveness", "ive", positive],
  ["fulness", "ful", positive],
  ["ousness", "ous", positive],
  ["aliti", "al", positive],
  ["iviti", "ive", positive],
  ["biliti", "ble", positive],
  ["fulli", "ful", positive],
  // No "lessli" → "less": NLTK's docstring lists it, but NLTK 3.8 (the test's reference) leaves "-lessli" as it is.
];

function step2(w: string): string {
  // "alli" → "al", then the step again on the shorter word (so "-ically"-like chains reduce further).
  if (w.endsWith("alli") && positive(w.slice(0, -4))) return step2(w.slice(0, -4) + "al");
  // "logi" → "log": the condition counts the stem with its "l" (the measure of the word less "ogi").
  if (w.endsWith("logi")) return positive(w.slice(0, -3)) ? w.slice(0, -1) : w;
  return applyFirst(w, STEP2);
}

const STEP3: readonly Rule[] = [
  ["icate", "ic", positive],
  ["ative", "", positive],
  ["alize", "al", positive],
  ["iciti", "ic", positive],
  ["ical", "ic", positive],
  ["ful", "", positive],
  ["ness", "", positive],
];

const STEP4: readonly Rule[] = [
  ["al", "", aboveOne],
  ["ance", "", aboveOne],
  ["ence", "", aboveOne],
  ["er", "", aboveOne],
  ["ic", "", aboveOne],
  ["able", "", aboveOne],
  ["ible", "", aboveOne],
  ["ant", "", aboveOne],
  ["ement", "", aboveOne],
  ["ment", "", aboveOne],
  ["ent", "", aboveOne],
  ["ion", "", (stem) => aboveOne(stem) && /[st]$/.test(stem)],
  ["ou", "", aboveOne],
  ["ism", "", aboveOne],
  ["ate", "", aboveOne],
  ["iti", "", aboveOne],
  ["ous", "", aboveOne],
  ["ive", "", aboveOne],
  ["ize", "", aboveOne],
];

function step5a(w: string): string {
  if (!w.endsWith("e")) return w;
  const stem = w.slice(0, -1);
  const m = measure(stem);
  return m > 1 || (m === 1 && !endsCvc(stem)) ? stem : w;
}

const step5b = (w: string) => (w.endsWith("ll") && measure(w.slice(0, -1)) > 1 ? w.slice(0, -1) : w);

/** A word's stem as NLTK's PorterStemmer (mode NLTK_EXTENSIONS, lower-casing on) gives it. */
export function porterNltk(word: string): string {
  const w = word.toLowerCase();
  if (Object.hasOwn(IRREGULAR, w)) return IRREGULAR[w];
  if (w.length <= 2) return w;
  let s = step1a(w);
  s = step1b(s);
  s = step1c(s);
  s = step2(s);
  s = applyFirst(s, STEP3);
  s = applyFirst(s, STEP4);
  s = step5a(s);
  return step5b(s);
}
