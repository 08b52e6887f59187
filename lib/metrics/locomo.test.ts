/** LoCoMo QA scores: hand-checked cases, the stemmer pinned, and a recomputation by a Python reference of the recipe. */
import { spawnSync } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { stemmer } from "stemmer";
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
];

describe("LoCoMo QA scoring (task_eval/evaluation.py)", () => {
  it("normalises as the public code: commas, case, punctuation, articles and 'and', whitespace", () => {
    expect(normalizeLocomoAnswer("The Library, downtown!")).toBe("library downtown");
    expect(normalizeLocomoAnswer("salt and  pepper; an apple")).toBe("salt pepper apple");
    expect(normalizeLocomoAnswer("Andrew's band")).toBe("andrews band");
  });

  it("pins the Porter stems the F1 relies on", () => {
    expect(["running", "adopted", "studies", "pottery", "dogs", "walks", "happily"].map(stemmer)).toEqual([
      "run",
      "adopt",
      "studi",
      "potteri",
      "dog",
      "walk",
      "happili",
    ]);
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
        for (const w of normalizeLocomoAnswer(s).split(" ").filter(Boolean)) stems[w] = stemmer(w);
    const r = spawnSync("python3", [path.join(import.meta.dirname, "locomo_reference.py")], {
      input: JSON.stringify({ stems, cases: CASES }),
      encoding: "utf8",
      timeout: 30_000,
    });
    expect(r.stderr).toBe("");
    const expected = JSON.parse(r.stdout) as number[];
    const got = CASES.map((c) => locomoQaScore(c.category, c.output, c.answer));
    expect(got.length).toBe(expected.length);
    got.forEach((g, i) => expect(g).toBeCloseTo(expected[i], 12));
    // The cases cover every category and both outcomes.
    expect(new Set(CASES.map((c) => c.category))).toEqual(new Set([1, 2, 3, 4, 5]));
    expect(got.some((g) => g === 0) && got.some((g) => g === 1) && got.some((g) => g > 0 && g < 1)).toBe(true);
  });
});
