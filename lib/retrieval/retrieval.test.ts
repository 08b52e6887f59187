import { describe, expect, it } from "vitest";
import { InvalidInputError } from "@/lib/errors";
import { mulberry32 } from "@/lib/random";
import { topK } from "./doc-list";
import {
  Bm25Index,
  Bm25Retriever,
  DEFAULT_K,
  DenseRetriever,
  TfidfRetriever,
  TfidfVectorizer,
  cosine,
  createRetriever,
  retrieverFromSettings,
  sparseDot,
  toDense,
  type EmbedFn,
} from "./index";

// Tiny corpora whose terms are known (see tokenize.test.ts):
//   EN  d0 "cat sat" → cat sat | d1 "cat cat dog" → cat cat dog | d2 "dog runs" → dog run
//   ZH  z0 "我喜欢跑步" → 喜欢 跑步 | z1 "周末去公园跑步" → 周末 去 公园 跑步 | z2 "周末看电影" → 周末 看 电影
const EN = [
  { id: "d0", text: "cat sat" },
  { id: "d1", text: "cat cat dog" },
  { id: "d2", text: "dog runs" },
];
const ZH = [
  { id: "z0", text: "我喜欢跑步" },
  { id: "z1", text: "周末去公园跑步" },
  { id: "z2", text: "周末看电影" },
];

describe("BM25", () => {
  // N = 3. EN: |d| = 2, 3, 2, avgdl = 7/3. n(cat) = 2 → idf = ln(1 + 1.5/2.5) = ln 1.6 = 0.470004.
  //   d0: tf 1, K = 1.5·(0.25 + 0.75·2/(7/3)) = 1.339286 → 0.470004·2.5/2.339286 = 0.502294
  //   d1: tf 2, K = 1.5·(0.25 + 0.75·3/(7/3)) = 1.821429 → 0.470004·5/3.821429   = 0.614958
  it("scores an English corpus as computed by hand", async () => {
    const r = new Bm25Retriever({ tokenizer: { language: "en" } });
    await r.add(EN);
    const hits = await r.search("cat", 3);
    // d2 shares no term: score 0, it still fills the third place (k hits whenever k documents exist)
    expect(hits.map((h) => h.id)).toEqual(["d1", "d0", "d2"]);
    expect(hits[0].score).toBeCloseTo(0.614958, 5);
    expect(hits[1].score).toBeCloseTo(0.502294, 5);
    expect(hits[2].score).toBe(0);
    expect(hits[0].doc).toBe(EN[1]);
  });

  // ZH: |d| = 2, 4, 3, avgdl = 3; n(跑步) = n(周末) = 2 → idf = ln 1.6 = 0.470004. Query 周末 跑步:
  //   z0: 跑步 tf 1, K = 1.5·(0.25 + 0.75·2/3) = 1.125 → 0.470004·2.5/2.125 = 0.552945
  //   z1: both, K = 1.5·(0.25 + 0.75·4/3) = 1.875 → 2·0.470004·2.5/2.875 = 0.817398
  //   z2: 周末, K = 1.5 → 0.470004·2.5/2.5 = 0.470004
  it("scores a Chinese corpus as computed by hand, and normalises by Σ idf·(k1+1)", async () => {
    const r = createRetriever("bm25", { tokenizer: { language: "zh" } });
    await r.add(ZH);
    const hits = await r.search("周末跑步");
    expect(hits.map((h) => [h.id, +h.score.toFixed(6)])).toEqual([
      ["z1", 0.817398],
      ["z0", 0.552945],
      ["z2", 0.470004],
    ]);
    const n = createRetriever("bm25", { tokenizer: { language: "zh" }, normalize: true });
    await n.add(ZH);
    const nh = await n.search("周末跑步");
    expect(nh.map((h) => h.id)).toEqual(["z1", "z0", "z2"]);
    // z1 = 2·idf·2.5/2.875 over 2·idf·2.5 = 1/2.875
    expect(nh[0].score).toBeCloseTo(1 / 2.875, 9);
    expect(nh[0].score).toBeLessThan(1);
  });

  it("never gives a negative idf (a term in every document still counts a little)", () => {
    const idx = new Bm25Index();
    idx.add(["a"]);
    idx.add(["a", "b"]);
    idx.add(["a", "c"]);
    expect(idx.idf("a")).toBeCloseTo(Math.log(1 + 0.5 / 3.5), 12); // 0.133531
    expect(idx.idf("a")).toBeGreaterThan(0);
    expect(idx.documentFrequency("a")).toBe(3);
    expect(idx.idf("zzz")).toBeCloseTo(Math.log(1 + 3.5 / 0.5), 12); // ln 8
    // the maximum counts every query term, also those no document has: 2.5·(0.133531 + 2.079442)
    expect(idx.maxScore(["a", "zzz"])).toBeCloseTo(2.5 * (0.133531 + 2.079442), 5);
  });

  it("breaks ties by insertion order and honours k and the filter", async () => {
    const r = new Bm25Retriever<{ session: number }>();
    await r.add([
      { id: "x", text: "booked a yoga class", meta: { session: 1 } },
      { id: "y", text: "booked a yoga class", meta: { session: 2 } },
      { id: "z", text: "booked a yoga class", meta: { session: 2 } },
    ]);
    expect((await r.search("yoga", 3)).map((h) => h.id)).toEqual(["x", "y", "z"]);
    expect((await r.search("yoga", 1)).map((h) => h.id)).toEqual(["x"]);
    expect((await r.search("yoga", 3, { filter: (d) => d.meta!.session === 2 })).map((h) => h.id)).toEqual(["y", "z"]);
    expect(await r.search("yoga", 0)).toEqual([]);
    expect((await r.search("yoga")).length).toBe(DEFAULT_K);
  });

  it("refuses duplicate ids and bad k without changing anything", async () => {
    const r = new Bm25Retriever();
    await r.add(EN);
    await expect(
      r.add([
        { id: "n1", text: "new" },
        { id: "d0", text: "again" },
      ]),
    ).rejects.toThrow(/docs\[1\]\.id: duplicate id "d0"/);
    await expect(
      r.add([
        { id: "n1", text: "a" },
        { id: "n1", text: "b" },
      ]),
    ).rejects.toThrow(InvalidInputError);
    expect(r.size).toBe(3);
    expect((await r.search("new", 3)).map((h) => h.id)).toEqual(["d0", "d1", "d2"]); // n1 was never added
    await expect(r.search("cat", -1)).rejects.toThrow(/k: must be a non-negative integer/);
  });
});

describe("TF-IDF", () => {
  // Smooth idf over N = 3: df 1 → ln(4/2) + 1 = 1.693147; df 2 → ln(4/3) + 1 = 1.287682.
  it("builds smooth-idf, L2-normalised vectors as computed by hand", () => {
    const v = new TfidfVectorizer({ language: "en" }).fit(EN.map((d) => d.text));
    expect(v.vocabulary).toEqual(["cat", "sat", "dog", "run"]); // order of first appearance
    expect(v.idf("cat")).toBeCloseTo(1.287682, 6);
    expect(v.idf("sat")).toBeCloseTo(1.693147, 6);
    expect(v.idf("bird")).toBeUndefined();
    // d1 = (2·1.287682, 1.287682) / ‖·‖ = (2/√5, 1/√5)
    const d1 = v.transform("cat cat dog");
    expect(d1.indices).toEqual([0, 2]);
    expect(d1.values[0]).toBeCloseTo(2 / Math.sqrt(5), 12);
    expect(d1.values[1]).toBeCloseTo(1 / Math.sqrt(5), 12);
    // d0 = (1.287682, 1.693147)/2.127175 = (0.605349, 0.795961)
    const d0 = v.transformDense("cat sat");
    expect(d0.map((x) => +x.toFixed(6))).toEqual([0.605349, 0.795961, 0, 0]);
    expect(sparseDot(v.transform("cat sat"), d1)).toBeCloseTo(0.605349 * 0.894427, 5); // 0.541441
    expect(toDense(v.transform("unknown words only"), 4)).toEqual([0, 0, 0, 0]);
  });

  it("saves and restores a fitted vectorizer", () => {
    const v = new TfidfVectorizer({ language: "zh" }).fit(ZH.map((d) => d.text));
    const w = TfidfVectorizer.fromJSON(JSON.parse(JSON.stringify(v.toJSON())));
    expect(w.vocabulary).toEqual(v.vocabulary);
    expect(w.tokenizer).toEqual(v.tokenizer);
    expect(w.transformDense("周末去公园")).toEqual(v.transformDense("周末去公园"));
    expect(() => new TfidfVectorizer().toJSON()).toThrow(/before fit/);
    expect(() => TfidfVectorizer.fromJSON({ tokenizer: v.tokenizer, terms: ["a", "a"], idf: [1, 1] })).toThrow(/unique/);
    expect(() => TfidfVectorizer.fromJSON({ tokenizer: v.tokenizer, terms: ["a"], idf: [] })).toThrow(/same length/);
  });

  it("ranks an English corpus by cosine", async () => {
    const r = new TfidfRetriever({ tokenizer: { language: "en" } });
    await r.add(EN);
    const hits = await r.search("cat");
    // d2 has no "cat": cosine 0, it fills the third place (k = 3 hits from 3 documents)
    expect(hits.map((h) => h.id)).toEqual(["d1", "d0", "d2"]);
    expect(hits[2].score).toBe(0);
    expect(hits[0].score).toBeCloseTo(2 / Math.sqrt(5), 9); // 0.894427
    expect(hits[1].score).toBeCloseTo(0.605349, 5);
    const both = await r.search("cat sat");
    expect(both[0].id).toBe("d0");
    expect(both[0].score).toBeCloseTo(1, 12);
  });

  // Query 周末 跑步 = (1/√2, 1/√2) over (周末, 跑步), both df 2.
  //   z0: 跑步 weight 1.287682/√(1.693147² + 1.287682²) = 0.605349 → cos 0.428046
  //   z1: 周末 = 跑步 = 1.287682/√(2·1.693147² + 2·1.287682²) = 0.428046 → cos 0.605349
  //   z2: 周末 = 1.287682/√(1.287682² + 2·1.693147²) = 0.473625 → cos 0.334907
  it("ranks a Chinese corpus by cosine as computed by hand", async () => {
    const r = createRetriever("tfidf", { tokenizer: { language: "zh" } });
    await r.add(ZH);
    const hits = await r.search("周末跑步");
    expect(hits.map((h) => [h.id, +h.score.toFixed(5)])).toEqual([
      ["z1", 0.60535],
      ["z0", 0.42805],
      ["z2", 0.33491],
    ]);
  });

  it("returns k hits when k documents pass the filter, even when no document shares a term (both lexical kinds)", async () => {
    for (const kind of ["bm25", "tfidf"] as const) {
      const r = createRetriever(kind, { tokenizer: { language: "en" } });
      await r.add(EN);
      // "zebra" is in no document: every score is 0, so the order is the insertion order
      expect((await r.search("zebra", 3)).map((h) => [h.id, h.score])).toEqual([
        ["d0", 0],
        ["d1", 0],
        ["d2", 0],
      ]);
      expect((await r.search("zebra", 5)).length).toBe(3); // never more than the documents
      // the filter still decides which documents may come back: d1 matches, d2 fills
      expect((await r.search("cat", 3, { filter: (d) => d.id !== "d0" })).map((h) => h.id)).toEqual(["d1", "d2"]);
    }
  });

  it("refits idf after an add", async () => {
    const r = new TfidfRetriever({ tokenizer: { language: "en" } });
    await r.add([EN[0]]);
    expect((await r.search("cat"))[0].score).toBeCloseTo(1.693147 / Math.sqrt(2 * 1.693147 ** 2), 6);
    await r.add([EN[1], EN[2]]);
    expect((await r.search("cat"))[0].id).toBe("d1");
    expect(r.size).toBe(3);
  });
});

describe("dense", () => {
  // A deterministic embedding for the test: counts of the letters a, b, c. The retriever only ever
  // sees vectors, so this checks cosine top-k exactly; the real embed comes from the model client.
  const calls: string[][] = [];
  const embed: EmbedFn = async (texts) => {
    calls.push(texts);
    return texts.map((t) => ["a", "b", "c"].map((ch) => t.split(ch).length - 1));
  };

  it("computes cosine", () => {
    expect(cosine([1, 0], [0, 1])).toBe(0);
    expect(cosine([1, 2, 2], [2, 4, 4])).toBeCloseTo(1, 12);
    expect(cosine([1, 1], [1, 0])).toBeCloseTo(Math.SQRT1_2, 12);
    expect(cosine([0, 0], [1, 0])).toBe(0);
    expect(() => cosine([1], [1, 2])).toThrow(InvalidInputError);
  });

  it("ranks by cosine, embeds a batch in one call, breaks ties by insertion order", async () => {
    calls.length = 0;
    const r = createRetriever<{ n: number }>("dense", { embed, model: "test-embedding" });
    expect(r.settings).toEqual({ kind: "dense", model: "test-embedding" });
    await r.add([
      { id: "A", text: "aaa" }, // (3,0,0)
      { id: "AB", text: "ab" }, // (1,1,0)
      { id: "B", text: "bb" }, // (0,2,0)
      { id: "A2", text: "a" }, // (1,0,0): same direction as A
    ]);
    expect(calls).toEqual([["aaa", "ab", "bb", "a"]]);
    // query "aab" = (2,1,0): cos A = 2/√5 = 0.894427, AB = 3/√10 = 0.948683, B = 1/√5 = 0.447214
    const hits = await r.search("aab", 3);
    expect(hits.map((h) => h.id)).toEqual(["AB", "A", "A2"]);
    expect(hits[0].score).toBeCloseTo(3 / Math.sqrt(10), 12);
    expect(hits[1].score).toBeCloseTo(2 / Math.sqrt(5), 12);
    expect(hits[2].score).toBe(hits[1].score);
    expect((await r.search("c", 2)).map((h) => h.id)).toEqual(["A", "AB"]); // all 0: insertion order
  });

  it("refuses a missing embed function and broken vectors, storing nothing", async () => {
    expect(() => createRetriever("dense", { model: "m" } as never)).toThrow(/opts\.embed/);
    const short = new DenseRetriever({ model: "m", embed: async (t) => t.slice(1).map(() => [1]) });
    await expect(
      short.add([
        { id: "1", text: "x" },
        { id: "2", text: "y" },
      ]),
    ).rejects.toThrow(/expected 2 vectors, got 1/);
    const ragged = new DenseRetriever({ model: "m", embed: async (t) => t.map((_, i) => (i === 0 ? [1, 0] : [1])) });
    await expect(
      ragged.add([
        { id: "1", text: "x" },
        { id: "2", text: "y" },
      ]),
    ).rejects.toThrow(/docs\[1\] \(id 2\): dimension 1, expected 2/);
    expect(ragged.size).toBe(0);
    const nan = new DenseRetriever({ model: "m", embed: async (t) => t.map(() => [NaN]) });
    await expect(nan.add([{ id: "1", text: "x" }])).rejects.toThrow(/not a vector of finite numbers/);
  });
});

describe("registry", () => {
  it("records settings and rebuilds a retriever from them", async () => {
    const r = createRetriever("bm25", { k1: 1.2, tokenizer: { language: "en" } });
    expect(r.settings).toEqual({
      kind: "bm25",
      k1: 1.2,
      b: 0.75,
      normalize: false,
      tokenizer: { language: "en", stem: true, stopWords: true },
    });
    const again = retrieverFromSettings(JSON.parse(JSON.stringify(r.settings)));
    expect(again.settings).toEqual(r.settings);
    await again.add(EN);
    expect((await again.search("cat")).map((h) => h.id)).toEqual(["d1", "d0", "d2"]);
    expect(() => retrieverFromSettings({ kind: "dense", model: "m" })).toThrow(/needs an embed function/);
    expect(() => createRetriever("nope" as "bm25", {})).toThrow(/unknown kind "nope"/);
  });
});

describe("topK", () => {
  it("equals a full sort by (score desc, insertion asc) for any k, with ties and a filter", () => {
    const rand = mulberry32(5);
    for (let round = 0; round < 200; round++) {
      const n = Math.floor(rand() * 120);
      const docs = Array.from({ length: n }, (_, i) => ({ id: `d${i}`, text: "" }));
      const scores = docs.map(() => Math.floor(rand() * 6) / 2); // many ties, some zeros
      const keep = (i: number) => scores[i] > 0 && i % 7 !== 3;
      const k = [0, 1, 3, 10, 65, 200][round % 6];
      const expected = docs
        .map((_, i) => i)
        .filter(keep)
        .sort((a, b) => scores[b] - scores[a] || a - b)
        .slice(0, k);
      expect(topK(docs, scores, k, keep).map((h) => Number(h.id.slice(1)))).toEqual(expected);
    }
  });
});
