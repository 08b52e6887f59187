/** LoCoMo QA scores: hand-checked cases, the stemmer pinned, and a recomputation by a Python reference of the recipe. */
import { spawnSync } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { stemmer } from "stemmer";
import { nltkPython } from "@/test/nltk";
import { porterNltk } from "./porter-nltk";
import { locomoEvidenceRecall, locomoF1, locomoMultiF1, locomoQaScore, normalizeLocomoAnswer } from "./locomo";

const CASES = [
  { category: 4, output: "Pepper", answer: "Pepper" },
  { category: 4, output: "Her dog is called Pepper, a beagle.", answer: "Pepper" },
  { category: 2, output: "The weekend before March 3, 2023", answer: "The weekend before 3 March 2023" },
  { category: 1, output: "pottery, running half marathons", answer: "pottery, running" },
  { category: 1, output: "pottery classes", answer: "pottery, running" },
  { category: 3, output: "Yes, she walks Pepper a lot", answer: "Likely yes; she walks her dog a lot" },
  { category: 4, output: "the library downtown", answer: "The Library, downtown!" },
  { category: 2, output: "2024", answer: "2024" },
  { category: 4, output: "", answer: "cello" },
  { category: 4, output: "Studies and studying: the running dogs adopted cats", answer: "study run dog adopt cat" },
  { category: 5, output: "Not mentioned in the conversation", answer: "" },
  { category: 5, output: "No information available.", answer: "" },
  { category: 5, output: "a blue vase", answer: "" },
  { category: 1, output: "Porto and Lisbon, Madrid", answer: "Lisbon, Porto" },
  // Words NLTK's mode stems apart from Porter's own (dying, skies, died, birthday).
  { category: 4, output: "dying skies on her birthday", answer: "She died on her birthday under the sky" },
];

/** The Python reference's scores of CASES: with the given stems, or (null) NLTK's own. */
function reference(stems: Record<string, string> | null, python = "python3"): number[] {
  const r = spawnSync(python, [path.join(import.meta.dirname, "locomo_reference.py")], {
    input: JSON.stringify({ stems, cases: CASES }),
    encoding: "utf8",
    timeout: 30_000,
  });
  expect(r.stderr).toBe("");
  return JSON.parse(r.stdout) as number[];
}

describe("LoCoMo QA scoring (task_eval/evaluation.py)", () => {
  it("normalises as the public code: commas, case, punctuation, articles and 'and', whitespace", () => {
    expect(normalizeLocomoAnswer("The Library, downtown!")).toBe("library downtown");
    expect(normalizeLocomoAnswer("salt and  pepper; an apple")).toBe("salt pepper apple");
    expect(normalizeLocomoAnswer("Andrew's band")).toBe("andrews band");
  });

  it("pins the Porter stems the F1 relies on (NLTK's mode)", () => {
    expect(["running", "adopted", "studies", "pottery", "dogs", "walks", "happily", "dying", "skies", "birthday"].map(porterNltk)).toEqual([
      "run",
      "adopt",
      "studi",
      "potteri",
      "dog",
      "walk",
      "happili",
      "die",
      "sky",
      "birthday",
    ]);
  });

  it("F1 version 2: NLTK's stems change a score the `stemmer` package scored lower", () => {
    // output [die sky on her birthday], reference [she die on her birthday under sky]: 5 shared, p = 1, r = 5/7.
    expect(locomoF1("dying skies on her birthday", "She died on her birthday under the sky")).toBeCloseTo(10 / 12, 12);
    // With Porter's own stems ("dy", "ski", "di", "birthdai") only 3 are shared: p = 3/5, r = 3/7, F1 = 0.5.
    expect(["dying", "skies", "died"].map(stemmer)).toEqual(["dy", "ski", "di"]);
  });

  it("hand-computed values", () => {
    expect(locomoF1("Pepper", "Pepper")).toBe(1);
    // 6 output tokens (her dog is called pepper beagle: "a" dropped), 1 reference token: p = 1/6, r = 1.
    expect(locomoF1("Her dog is called Pepper, a beagle.", "Pepper")).toBeCloseTo((2 * (1 / 6) * 1) / (1 / 6 + 1), 12);
    expect(locomoMultiF1("pottery classes", "pottery, running")).toBeCloseTo((2 / 3 + 0) / 2, 12);
    expect(locomoQaScore(3, "she walks her dog", "Likely yes; she walks her dog a lot")).toBe(0);
    expect(locomoQaScore(3, "likely yes", "Likely yes; she walks her dog a lot")).toBe(1);
    expect(locomoQaScore(5, "It is not mentioned.", "")).toBe(1);
    expect(() => locomoQaScore(6, "x", "y")).toThrow(/category 6/);
  });

  it("evidence recall: dialogue ids, session ids, no evidence", () => {
    expect(locomoEvidenceRecall(["D1:2", "D2:1"], ["D2:1", "D1:4"])).toBe(0.5);
    expect(locomoEvidenceRecall(["D1:2", "D2:1"], ["S2"])).toBe(0.5);
    expect(locomoEvidenceRecall([], ["D1:1"])).toBe(1);
  });

  it("equals a Python reference of the public recipe on every case", () => {
    const stems: Record<string, string> = {};
    for (const c of CASES)
      for (const s of [c.output, c.answer, c.answer.split(";")[0], ...c.output.split(","), ...c.answer.split(",")])
        for (const w of normalizeLocomoAnswer(s).split(" ").filter(Boolean)) stems[w] = porterNltk(w);
    const expected = reference(stems);
    const got = CASES.map((c) => locomoQaScore(c.category, c.output, c.answer));
    expect(got.length).toBe(expected.length);
    got.forEach((g, i) => expect(g).toBeCloseTo(expected[i], 12));
    // The cases cover every category and both outcomes.
    expect(new Set(CASES.map((c) => c.category))).toEqual(new Set([1, 2, 3, 4, 5]));
    expect(got.some((g) => g === 0) && got.some((g) => g === 1) && got.some((g) => g > 0 && g < 1)).toBe(true);
  });

  it.skipIf(!nltkPython())("equals the reference stemming with NLTK's PorterStemmer itself, as the public code runs", () => {
    const expected = reference(null, nltkPython()!);
    CASES.forEach((c, i) => expect(locomoQaScore(c.category, c.output, c.answer), JSON.stringify(c)).toBeCloseTo(expected[i], 12));
  });
});
