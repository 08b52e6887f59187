/**
 * BM25 as HiCUPID's public retrieval runs it (src/utils/bm25.py): rank_bm25's BM25Okapi (k1 1.5, b 0.75,
 * ε 0.25) over Python `str.split()` tokens. Expected values worked out by hand with BM25Okapi's formulas:
 * idf = ln(N − n + 0.5) − ln(n + 0.5), a negative idf replaced by ε × the mean idf over the vocabulary.
 */
import { describe, expect, it } from "vitest";
import { Bm25Retriever, retrieverFromSettings, whitespaceTokens } from "./index";

// d0 I love my dog Max (5) | d1 My dog loves the park (5) | d2 The weather is nice (4); N = 3, avgdl = 14/3.
const DOCS = [
  { id: "d0", text: "I love my dog Max" },
  { id: "d1", text: "My dog loves the park" },
  { id: "d2", text: "The weather is nice" },
];
// 13 distinct tokens ("My" ≠ "my", "The" ≠ "the"); 12 in one document: idf ln(2.5/1.5); "dog" in two: ln(1.5/2.5) < 0.
const ONE = Math.log(2.5) - Math.log(1.5);
const EPS = 0.25 * ((12 * ONE + (Math.log(1.5) - Math.log(2.5))) / 13);
// tf = 1 in a 5-token document: (k1 + 1) / (1 + k1 (1 − b + b · 5 / avgdl))
const SAT5 = 2.5 / (1 + 1.5 * (0.25 + (0.75 * 5) / (14 / 3)));

describe("BM25 as rank_bm25's BM25Okapi over whitespace tokens", () => {
  it("splits as Python's str.split(): case and punctuation kept, runs of whitespace one gap", () => {
    expect(whitespaceTokens("  Dog's  park,\tnow\n")).toEqual(["Dog's", "park,", "now"]);
    expect(whitespaceTokens("a\u00a0b\ufeffc")).toEqual(["a", "b\ufeffc"]); // U+FEFF is not Python whitespace
  });

  it("scores with the Okapi idf and ε for negative idfs", async () => {
    const r = new Bm25Retriever<unknown>({ split: "whitespace", idf: "okapi" });
    await r.add(DOCS);
    const hits = await r.search("dog park", 3);
    expect(hits.map((h) => h.id)).toEqual(["d1", "d0", "d2"]);
    expect(hits[0].score).toBeCloseTo(EPS * SAT5 + ONE * SAT5, 12);
    expect(hits[1].score).toBeCloseTo(EPS * SAT5, 12);
    expect(hits[2].score).toBe(0);
    // Case-sensitive, as str.split() leaves it: "Dog" is not "dog"; "the" only matches d1's "the".
    expect((await r.search("Dog", 1))[0].score).toBe(0);
    const the = await r.search("the", 3);
    expect(the[0].id).toBe("d1");
    expect(the[0].score).toBeCloseTo(ONE * SAT5, 12);
  });

  it("differs from the project's default (lower-cased, stemmed terms, +1 idf), which stays the default", async () => {
    const project = new Bm25Retriever<unknown>({});
    await project.add(DOCS);
    // "loves" and "love" stem alike and the idf is never negative: d0 and d1 both match "dog" with a positive idf.
    expect(project.settings).not.toHaveProperty("idf");
    expect(project.settings).not.toHaveProperty("split");
    const p = await project.search("Dog", 3);
    expect(p[0].score).toBeGreaterThan(0);
  });

  it("keeps its settings through retrieverFromSettings", async () => {
    const a = new Bm25Retriever<unknown>({ split: "whitespace", idf: "okapi" });
    const b = retrieverFromSettings(a.settings);
    await a.add(DOCS);
    await b.add(DOCS);
    expect((await b.search("dog park", 3)).map((h) => h.score)).toEqual((await a.search("dog park", 3)).map((h) => h.score));
  });
});
