import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import {
  MEMPAL_BLEU_WEIGHTS,
  bleu4Tokens,
  brevityPenalty,
  closestRefLength,
  meanBleu,
  memPalBleu,
  memPalBleuTokens,
  modifiedPrecision,
  ngramStats,
  sentenceBleu,
  sentenceBleuMulti,
} from "./bleu";
import { segment, isBlankToken } from "./segment";
import { fsum } from "./fsum";
import { crExp, crLog } from "./crmath";

const w = (s: string) => s.split(" ");

// NLTK's own doctest sentences (nltk/translate/bleu_score.py), with the values NLTK publishes for them.
const hypothesis1 = w("It is a guide to action which ensures that the military always obeys the commands of the party");
const hypothesis2 = w("It is to insure the troops forever hearing the activity guidebook that party direct");
const reference1 = w("It is a guide to action that ensures that the military will forever heed Party commands");
const reference2 = w("It is the guiding principle which guarantees the military forces always being under the command of the Party");
const reference3 = w("It is the practical guide for the army always to heed the directions of the party");
const refs3 = [reference1, reference2, reference3];

describe("NLTK published values", () => {
  it("modified precision, including the clipping example", () => {
    // "the the the ...": 'the' appears at most twice in one reference → clipped to 2 of 7.
    expect(modifiedPrecision([w("the cat is on the mat"), w("there is a cat on the mat")], w("the the the the the the the"), 1)).toEqual({
      numerator: 2,
      denominator: 7,
    });
    expect(modifiedPrecision(refs3, w("of the"), 1)).toEqual({ numerator: 2, denominator: 2 });
    expect(modifiedPrecision(refs3, w("of the"), 2)).toEqual({ numerator: 1, denominator: 1 });
    expect(modifiedPrecision(refs3, hypothesis1, 1)).toEqual({ numerator: 17, denominator: 18 }); // 0.9444...
    expect(modifiedPrecision(refs3, hypothesis2, 1)).toEqual({ numerator: 8, denominator: 14 }); // 0.5714...
    expect(modifiedPrecision(refs3, hypothesis1, 2)).toEqual({ numerator: 10, denominator: 17 }); // 0.5882352941176471
    expect(modifiedPrecision(refs3, hypothesis2, 2)).toEqual({ numerator: 1, denominator: 13 }); // 0.07692...
  });

  it("brevity penalty and closest reference length", () => {
    const a = (n: number) => new Array<string>(n).fill("a");
    expect(brevityPenalty(closestRefLength([a(12), a(15), a(17)], 12), 12)).toBe(1);
    expect(brevityPenalty(closestRefLength([a(28), a(28)], 12), 12)).toBe(0.2635971381157267);
    expect(brevityPenalty(closestRefLength([a(13), a(2)], 12), 12)).toBeCloseTo(0.9200444146293233, 15);
    // Equal distance (13 and 11 from 12): the shorter reference counts, so no penalty, in either order.
    expect(closestRefLength([a(13), a(11)], 12)).toBe(11);
    expect(closestRefLength([a(11), a(13)], 12)).toBe(11);
    expect(brevityPenalty(closestRefLength([a(11), a(8)], 7), 7)).toBeCloseTo(0.8668778997501817, 15);
    expect(brevityPenalty(closestRefLength([a(11), a(8), a(6), a(7)], 7), 7)).toBe(1);
    expect(brevityPenalty(5, 0)).toBe(0);
  });

  it("sentence_bleu and the list-of-weights form", () => {
    expect(sentenceBleu(refs3, hypothesis1, undefined, { smoothing: "method0" })).toBe(0.5045666840058485);
    expect(sentenceBleu(refs3, hypothesis1, [0.2, 0.2, 0.2, 0.2, 0.2], { smoothing: "method0" })).toBeCloseTo(0.3920263408415, 12);
    const multi = sentenceBleuMulti(
      refs3,
      hypothesis1,
      [
        [0.5, 0.5],
        [1 / 3, 1 / 3, 1 / 3],
        [0.25, 0.25, 0.25, 0.25],
      ],
      { smoothing: "method0" },
    );
    expect(multi[0]).toBeCloseTo(0.7453559924999299, 15);
    expect(multi[1]).toBeCloseTo(0.6240726989348756, 15);
    expect(multi[2]).toBe(0.5045666840058485);
    // SmoothingFunction doctest: method0 and method1 both give 0.4118... (no zero precision to smooth).
    expect(sentenceBleu([reference1], hypothesis1, undefined, { smoothing: "method1" })).toBeCloseTo(0.41180376356915777, 15);
    expect(sentenceBleu([reference1], hypothesis1, undefined, { smoothing: "method0" })).toBeCloseTo(0.41180376356915777, 15);
  });
});

describe("hand-computed Mem-PAL BLEU-1..4 (weights 1 | .5 .5 | .33 .33 .33 | .25 x4, method1)", () => {
  it("clipping and smoothing: 'the' x7 against 'the cat is on the mat'", () => {
    // p1 = 2/7 (clipped); p2 = 0/6 → (0 + 0.1)/6; p3 = 0.1/5; p4 = 0.1/4. c = 7 > r = 6 → BP = 1.
    const b = bleu4Tokens(w("the cat is on the mat"), w("the the the the the the the"));
    expect(b[0]).toBeCloseTo(2 / 7, 15);
    expect(b[1]).toBeCloseTo(Math.sqrt((2 / 7) * (0.1 / 6)), 15); // 0.06900655593423542
    expect(b[2]).toBeCloseTo(Math.pow((2 / 7) * (0.1 / 6) * (0.1 / 5), 0.33), 15);
    expect(b[3]).toBeCloseTo(Math.pow((2 / 7) * (0.1 / 6) * (0.1 / 5) * (0.1 / 4), 0.25), 15);
  });

  it("brevity penalty: a perfect 5-token prefix of a 10-token reference", () => {
    // Every p_n = 1; BP = exp(1 − 10/5) = e^−1 for all four scores (B-3: exp(0.99·0) · BP).
    const b = bleu4Tokens(w("a b c d e f g h i j"), w("a b c d e"));
    for (const x of b) expect(x).toBeCloseTo(Math.exp(-1), 15);
  });

  it("hypothesis shorter than n: denominators become max(1, 0) = 1", () => {
    // hyp 'a b' vs 'a b c': p1 = 2/2, p2 = 1/1, p3 = 0/1 → 0.1, p4 = 0/1 → 0.1; BP = exp(1 − 3/2).
    const bp = Math.exp(-0.5);
    const b = bleu4Tokens(w("a b c"), w("a b"));
    expect(b[0]).toBeCloseTo(bp, 15);
    expect(b[1]).toBeCloseTo(bp, 15);
    expect(b[2]).toBeCloseTo(bp * Math.pow(0.1, 0.33), 15);
    expect(b[3]).toBeCloseTo(bp * Math.pow(0.1, 0.5), 15); // 0.19180...
  });

  it("no unigram match gives exactly 0, and so does an empty candidate", () => {
    expect(bleu4Tokens(w("a b c"), w("x y z"))).toEqual([0, 0, 0, 0]);
    expect(bleu4Tokens(w("a b c"), [])).toEqual([0, 0, 0, 0]);
    expect(memPalBleu("今天天气很好", "")).toEqual([0, 0, 0, 0]);
  });

  it("B-3 uses 0.33, not 1/3", () => {
    // p1 = 3/4, p2 = 1/3, p3 = 0.1/2 for 'a b x c' vs 'a b c d' (c = r = 4, BP = 1).
    const b = bleu4Tokens(w("a b c d"), w("a b x c"));
    const logs = [crLog(3 / 4), crLog(1 / 3), crLog(0.1 / 2)];
    expect(b[2]).toBe(crExp(fsum(logs.map((l) => 0.33 * l))));
    expect(b[2]).not.toBeCloseTo(crExp(fsum(logs.map((l) => l / 3))), 6);
  });

  it("several references: Mem-PAL keeps the best single-reference score per order; NLTK clips jointly", () => {
    const r1 = w("a b c d");
    const r2 = w("c d e f");
    const hyp = w("a b e f");
    // Alone: vs r1, p1 = 2/4, p2 = 1/3 ('a b'); vs r2, p1 = 2/4, p2 = 1/3 ('e f'). Same, so max = either.
    const one = bleu4Tokens(r1, hyp);
    expect(memPalBleuTokens([r1, r2], hyp)).toEqual(one);
    expect(one[0]).toBe(0.5);
    expect(one[1]).toBeCloseTo(Math.sqrt(0.5 * (1 / 3)), 15);
    // NLTK's joint clipping would count all 4 unigrams: p1 = 4/4.
    expect(modifiedPrecision([r1, r2], hyp, 1)).toEqual({ numerator: 4, denominator: 4 });
    // The max is per order: r3 wins B-1, r1 wins B-2.
    const r3 = w("a b e f z");
    const best = memPalBleuTokens([r1, r3], w("a b e f"));
    expect(best[0]).toBe(Math.max(bleu4Tokens(r1, hyp)[0], bleu4Tokens(r3, hyp)[0]));
    expect(best[1]).toBe(Math.max(bleu4Tokens(r1, hyp)[1], bleu4Tokens(r3, hyp)[1]));
  });
});

describe("segmentation and the recipe on raw text", () => {
  it("jieba accurate mode, HMM on, whitespace tokens kept (metrics.py), dropped on request", () => {
    expect(segment("我想去北京大学看看")).toEqual(["我", "想", "去", "北京大学", "看看"]);
    expect(segment("The cat sat on the mat.")).toEqual(["The", " ", "cat", " ", "sat", " ", "on", " ", "the", " ", "mat", "."]);
    expect(segment("The cat sat on the mat.", { whitespace: "drop" })).toEqual(["The", "cat", "sat", "on", "the", "mat", "."]);
    expect(segment("a \t b\n c", { whitespace: "drop" })).toEqual(["a", "b", "c"]);
    expect(isBlankToken("\u3000")).toBe(true);
    expect(isBlankToken("\ufeff")).toBe(false); // not whitespace to Python's str.isspace
  });

  it("English: the spaces count as tokens, as in Mem-PAL's metrics.py (worked out by hand)", () => {
    // ref "the cat sat" → the/␣/cat/␣/sat (5), hyp "the dog sat" → the/␣/dog/␣/sat (5); BP = 1.
    // p1 = 4/5 (the, ␣, ␣, sat); p2: "the ␣", "␣ sat" of 4 → 2/4; p3: 0 of 3 → 0.1/3; p4: 0 of 2 → 0.1/2.
    const kept = memPalBleu("the cat sat", "the dog sat");
    expect(kept[0]).toBeCloseTo(0.8, 15);
    expect(kept[1]).toBeCloseTo(Math.sqrt(0.8 * 0.5), 15);
    expect(kept[3]).toBeCloseTo(Math.pow(0.8 * 0.5 * (0.1 / 3) * 0.05, 0.25), 15);
    // Without the spaces: the/cat/sat vs the/dog/sat: p1 = 2/3, p2 = 0.1/2 (no bigram matches).
    const dropped = memPalBleu("the cat sat", "the dog sat", { whitespace: "drop" });
    expect(dropped[0]).toBeCloseTo(2 / 3, 15);
    expect(dropped[1]).toBeCloseTo(Math.sqrt((2 / 3) * 0.05), 15);
  });

  it("Chinese: 我想去北京看看 against 我想去北京大学看看", () => {
    // ref 我/想/去/北京大学/看看, hyp 我/想/去/北京/看看 (c = r = 5, BP = exp(0) = 1).
    // p1 = 4/5; p2: 我想, 想去 match of 4 → 2/4; p3: 我想去 of 3 → 1/3; p4: 0/2 → 0.1/2.
    const b = memPalBleu("我想去北京大学看看", "我想去北京看看");
    expect(b[0]).toBeCloseTo(0.8, 15);
    expect(b[1]).toBeCloseTo(Math.sqrt(0.8 * 0.5), 15); // 0.6324555320336759
    expect(b[2]).toBeCloseTo(Math.pow(0.8 * 0.5 * (1 / 3), 0.33), 15); // 0.5143157015215767
    expect(b[3]).toBeCloseTo(Math.pow(0.8 * 0.5 * (1 / 3) * 0.05, 0.25), 15); // 0.28574404296988
  });

  it("Chinese with two references (solution generation)", () => {
    // 今天天气/很/好 and 天气/很/好; the candidate 天气/很/好 matches the second reference exactly:
    // p1 = p2 = p3 = 1, p4 = 0/max(1, 0) → 0.1, BP = 1, so B-1..3 = 1 and B-4 = 0.1^0.25 ≈ 0.562.
    // Against the first it scores lower on every order (p1 = 2/3), so the maxima come from the second.
    const b = memPalBleu(["今天天气很好", "天气很好"], "天气很好");
    expect(b.slice(0, 3)).toEqual([1, 1, 1]);
    expect(b[3]).toBeCloseTo(Math.pow(0.1, 0.25), 15);
  });

  it("English through jieba: case kept, punctuation a token", () => {
    // ref The/cat/sat/on/the/mat/. (7 tokens), hyp the/cat/sat/on/the/mat (6). 'The' ≠ 'the', so the
    // hypothesis' two 'the' are clipped to the reference's one: p1 = 5/6; bigrams cat sat, sat on,
    // on the, the mat match, 'the cat' does not: p2 = 4/5. c = 6 < r = 7: BP = exp(1 − 7/6).
    const b = memPalBleu("The cat sat on the mat.", "the cat sat on the mat", { whitespace: "drop" });
    const bp = Math.exp(1 - 7 / 6);
    expect(b[0]).toBeCloseTo(bp * (5 / 6), 15);
    expect(b[1]).toBeCloseTo(bp * Math.sqrt((5 / 6) * (4 / 5)), 15);
    // With the spaces (the default, metrics.py): ref 12 tokens, hyp 11 (5 spaces each). p1: 'the' clipped
    // to 1, 5 spaces, cat, sat, on, mat → 10/11; p2: 'the ␣' clipped to 1 plus 8 more → 9/10; BP = exp(1 − 12/11).
    const k = memPalBleu("The cat sat on the mat.", "the cat sat on the mat");
    const bpk = Math.exp(1 - 12 / 11);
    expect(k[0]).toBeCloseTo(bpk * (10 / 11), 15);
    expect(k[1]).toBeCloseTo(bpk * Math.sqrt((10 / 11) * (9 / 10)), 15);
  });
});

describe("properties", () => {
  const word = fc.constantFrom("我", "想", "去", "北京", "看看", "the", "cat", "a", "b", "c", "。", "，");
  const sentence = fc.array(word, { minLength: 0, maxLength: 30 });

  it("BLEU-n of a sentence with itself is 1 whenever it has at least n tokens", () => {
    fc.assert(
      fc.property(sentence, (s) => {
        const b = bleu4Tokens(s, s);
        for (let n = 1; n <= 4; n++) if (s.length >= n) expect(b[n - 1]).toBe(1);
      }),
    );
  });

  it("scores stay in [0, 1] and are finite", () => {
    fc.assert(
      fc.property(sentence, sentence, sentence, (r1, r2, h) => {
        for (const x of memPalBleuTokens([r1, r2], h)) {
          expect(x).toBeGreaterThanOrEqual(0);
          expect(x).toBeLessThanOrEqual(1);
          expect(Number.isFinite(x)).toBe(true);
        }
      }),
    );
  });

  it("NLTK multi-reference BLEU ignores reference order", () => {
    fc.assert(
      fc.property(sentence, sentence, sentence, (r1, r2, h) => {
        fc.pre(r1.length > 0 && r2.length > 0);
        expect(sentenceBleu([r1, r2], h)).toBe(sentenceBleu([r2, r1], h));
      }),
    );
  });

  it("Chinese text with itself scores 1 (B-1)", () => {
    const zh = fc.array(fc.constantFrom("我们", "今天", "需要", "健康", "饮食", "计划", "，", "散步", "北京大学"), {
      minLength: 1,
      maxLength: 20,
    });
    fc.assert(
      fc.property(zh, (parts) => {
        const text = parts.join("");
        expect(memPalBleu(text, text)[0]).toBe(1);
      }),
      { numRuns: 50 },
    );
  });
});

/** Modified precision straight from the definition, for cross-checking the fast counting. */
function definitionPrecision(refs: string[][], hyp: string[], n: number): { numerator: number; denominator: number } {
  const grams = (t: string[]) => {
    const m = new Map<string, number>();
    for (let i = 0; i + n <= t.length; i++) m.set(JSON.stringify(t.slice(i, i + n)), (m.get(JSON.stringify(t.slice(i, i + n))) ?? 0) + 1);
    return m;
  };
  const h = grams(hyp);
  const rs = refs.map(grams);
  let numerator = 0;
  let total = 0;
  for (const [g, c] of h) {
    numerator += Math.min(c, Math.max(0, ...rs.map((r) => r.get(g) ?? 0)));
    total += c;
  }
  return { numerator, denominator: Math.max(1, total) };
}

describe("fast counting equals the definition", () => {
  it("on random token sequences, one or several references", () => {
    const tok = fc.constantFrom("a", "b", "c", "d", "e", "的", "了");
    const seq = fc.array(tok, { maxLength: 40 });
    fc.assert(
      fc.property(fc.array(seq, { minLength: 1, maxLength: 3 }), seq, (refs, hyp) => {
        const stats = ngramStats(refs, hyp, 4);
        for (let n = 1; n <= 4; n++) expect(stats.precisions[n - 1]).toEqual(definitionPrecision(refs, hyp, n));
      }),
      { numRuns: 300 },
    );
  });

  it("with long texts: n-gram codes beyond 32 bits and a table that grows", () => {
    // 2,000 distinct tokens: codes up to 2001^4 ≈ 1.6e13, still exact doubles.
    const rand = (i: number) => `w${(i * 7919) % 2000}`;
    const ref = Array.from({ length: 3000 }, (_, i) => rand(i));
    const hyp = Array.from({ length: 2500 }, (_, i) => rand(i % 3 === 0 ? i + 1 : i));
    const stats = ngramStats([ref], hyp, 4);
    for (let n = 1; n <= 4; n++) expect(stats.precisions[n - 1]).toEqual(definitionPrecision([ref], hyp, n));
  });

  it("with more distinct tokens than numeric n-gram codes allow (string codes)", () => {
    // 10,000 distinct tokens: (V + 1)^4 > 2^53, so codes fall back to strings.
    const ref = Array.from({ length: 10_000 }, (_, i) => `t${i}`);
    const hyp = [...ref.slice(0, 50), "x", ...ref.slice(100, 200), ref[5]];
    const stats = ngramStats([ref], hyp, 4);
    for (let n = 1; n <= 4; n++) expect(stats.precisions[n - 1]).toEqual(definitionPrecision([ref], hyp, n));
  });
});

describe("bit-for-bit parity with a Python rendering of NLTK 3.8 (test/fixtures/metrics)", () => {
  it("200 seeded cases, one to three references, B-1..B-4 identical to the last bit", () => {
    const file = path.resolve(__dirname, "../../test/fixtures/metrics/nltk-bleu-parity.json");
    const cases = JSON.parse(fs.readFileSync(file, "utf8")) as Array<{ references: string[][]; hypothesis: string[]; bleu: number[] }>;
    expect(cases).toHaveLength(200);
    for (const c of cases) expect(sentenceBleuMulti(c.references, c.hypothesis, MEMPAL_BLEU_WEIGHTS)).toEqual(c.bleu);
  });
});

describe("helpers", () => {
  it("meanBleu averages per order", () => {
    expect(meanBleu([])).toBeNull();
    expect(
      meanBleu([
        [1, 0.5, 0.25, 0],
        [0, 0.5, 0.75, 1],
      ]),
    ).toEqual([0.5, 0.5, 0.5, 0.5]);
  });

  it("fsum is correctly rounded (Python math.fsum examples)", () => {
    expect(fsum(new Array(10).fill(0.1))).toBe(1);
    expect(fsum([1e100, 1, -1e100])).toBe(1);
    expect(fsum([1, 1e-16, 1e-16])).toBe(1.0000000000000002);
    expect(fsum([])).toBe(0);
  });
});
