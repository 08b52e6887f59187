/**
 * The NLTK-mode Porter stemmer (LoCoMo's F1 stems with NLTK's PorterStemmer, mode NLTK_EXTENSIONS): each rule
 * of the mode on words whose stems follow from the rule (pinned, run everywhere), and, where a Python with
 * NLTK is installed (test/nltk.ts), NLTK's own stems of a broad word list: every word of this repository's
 * docs and fixtures, and those words with Porter's suffixes added.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { stemmer } from "stemmer";
import { mulberry32 } from "@/lib/random";
import { nltkPython, nltkStems } from "@/test/nltk";
import { porterNltk } from "./porter-nltk";

/** word → stem, grouped by the rule that decides it. */
const PINNED: Record<string, Record<string, string>> = {
  "irregular forms (the mode's table)": {
    skies: "sky",
    sky: "sky",
    dying: "die",
    lying: "lie",
    tying: "tie",
    news: "news",
    innings: "inning",
    outings: "outing",
    cannings: "canning",
    proceed: "proceed",
    exceed: "exceed",
    succeed: "succeed",
  },
  "one or two letters stay": { by: "by", is: "is", as: "as" },
  "step 1a (a four-letter 'ies' → 'ie')": {
    ties: "tie",
    dies: "die",
    cries: "cri",
    ponies: "poni",
    caresses: "caress",
    cats: "cat",
    class: "class",
  },
  "step 1b ('ied' → 'ie' in four letters, 'eed', 'ed'/'ing' and the tidying)": {
    died: "die",
    tied: "tie",
    spied: "spi",
    agreed: "agre",
    feed: "feed",
    hopping: "hop",
    hoping: "hope",
    filing: "file",
    falling: "fall",
    hissing: "hiss",
    fizzed: "fizz",
    conflated: "conflat",
  },
  "*o holds for a two-letter vowel-consonant stem": { used: "use", owed: "owe", age: "age" },
  "step 1c ('y' → 'i' only after a consonant that is not the first letter)": {
    cry: "cri",
    happy: "happi",
    say: "say",
    birthday: "birthday",
    enjoy: "enjoy",
    always: "alway",
  },
  "step 2 ('alli' again, 'bli', 'logi', 'fulli'; no 'lessli')": {
    relational: "relat",
    conditional: "condit",
    valenci: "valenc",
    digitizer: "digit",
    conformabli: "conform",
    radically: "radic",
    generally: "gener",
    fully: "fulli",
    helpfully: "help",
    beautifully: "beauti",
    hopelessly: "hopelessli",
    analogy: "analog",
    biology: "biolog",
  },
  "steps 3-5": {
    triplicate: "triplic",
    formative: "form",
    electrical: "electr",
    hopeful: "hope",
    goodness: "good",
    revival: "reviv",
    allowance: "allow",
    adoption: "adopt",
    controll: "control",
    roll: "roll",
    rate: "rate",
    cease: "ceas",
  },
};

const ALL_PINNED = Object.assign({}, ...Object.values(PINNED)) as Record<string, string>;

/** Porter's suffixes, to add to real words so that every rule is reached. */
const SUFFIXES = [
  "s",
  "es",
  "ies",
  "ied",
  "ed",
  "ing",
  "eed",
  "y",
  "ly",
  "ally",
  "ically",
  "fully",
  "lessly",
  "ently",
  "ously",
  "ably",
  "ibly",
  "ational",
  "ation",
  "ization",
  "izer",
  "ator",
  "alism",
  "iveness",
  "fulness",
  "ousness",
  "aliti",
  "iviti",
  "biliti",
  "logy",
  "logies",
  "icate",
  "ative",
  "alize",
  "iciti",
  "ical",
  "ful",
  "ness",
  "al",
  "ance",
  "ence",
  "er",
  "ic",
  "able",
  "ible",
  "ant",
  "ement",
  "ment",
  "ent",
  "sion",
  "tion",
  "ou",
  "ism",
  "ate",
  "iti",
  "ous",
  "ive",
  "ize",
  "e",
  "ll",
];

/** The words of this repository's docs and fixtures (lower-case a-z runs), and some of them with suffixes. */
function wordList(): string[] {
  const root = path.resolve(import.meta.dirname, "../..");
  const words = new Set<string>();
  const walk = (p: string) => {
    const st = fs.statSync(p);
    if (st.isDirectory()) return fs.readdirSync(p).forEach((f) => walk(path.join(p, f)));
    if (!/\.(md|json|jsonl|txt)$/.test(p) || st.size > 5_000_000) return;
    for (const w of fs
      .readFileSync(p, "utf8")
      .toLowerCase()
      .match(/[a-z]+/g) ?? [])
      if (w.length < 25) words.add(w);
  };
  walk(path.join(root, "docs"));
  walk(path.join(root, "fixtures"));
  const rand = mulberry32(42);
  const bases = [...words].filter((w) => w.length >= 2 && w.length <= 8).sort();
  for (const b of bases) for (let k = 0; k < 3; k++) words.add(b + SUFFIXES[Math.floor(rand() * SUFFIXES.length)]);
  for (const w of Object.keys(ALL_PINNED)) words.add(w);
  return [...words].sort();
}

describe("Porter's stemmer in NLTK's NLTK_EXTENSIONS mode", () => {
  for (const [rule, cases] of Object.entries(PINNED))
    it(rule, () => {
      expect(Object.fromEntries(Object.keys(cases).map((w) => [w, porterNltk(w)]))).toEqual(cases);
    });

  it("lower-cases as NLTK's stem() does by default", () => {
    expect(porterNltk("Skies")).toBe("sky");
    expect(porterNltk("RUNNING")).toBe("run");
  });

  it("differs from the `stemmer` package (Porter's own JavaScript) where the mode does", () => {
    const differ = ["dying", "skies", "ties", "birthday", "age", "used", "helpfully", "always"];
    expect(differ.filter((w) => stemmer(w) === porterNltk(w))).toEqual([]);
  });

  it.skipIf(!nltkPython())(
    "equals NLTK's PorterStemmer on every word of a broad list",
    () => {
      const words = wordList();
      expect(words.length).toBeGreaterThan(10_000);
      const ref = nltkStems(words);
      expect(ref.mode).toBe("NLTK_EXTENSIONS");
      const wrong = words.filter((w) => porterNltk(w) !== ref.stems[w]).map((w) => `${w}: nltk ${ref.stems[w]}, here ${porterNltk(w)}`);
      expect(wrong).toEqual([]);
      // The pinned stems are NLTK's too.
      for (const [w, s] of Object.entries(ALL_PINNED)) expect(ref.stems[w], w).toBe(s);
    },
    120_000,
  );
});
