import { describe, expect, it } from "vitest";
import { hfBleu, hfBleuFromStats, hfBleuItem, hfBleuStats, tokenize13a } from "./hicupid-bleu";

describe("sacrebleu 13a tokenization", () => {
  it("splits symbols, and periods/commas except inside numbers, and a dash after a digit", () => {
    expect(tokenize13a("Hello, world! It's 3.5-4 (approx.).")).toEqual([
      "Hello",
      ",",
      "world",
      "!",
      "It's",
      "3.5",
      "-",
      "4",
      "(",
      "approx",
      ".",
      ")",
      ".",
    ]);
    // &amp; unescaped then split; 1,000.5 kept; x-y kept; "-\n" joins the line.
    expect(tokenize13a('a&amp;b 1,000.5 x-y "q" end-\nline')).toEqual(["a", "&", "b", "1,000.5", "x-y", '"', "q", '"', "endline"]);
    expect(tokenize13a("")).toEqual([]);
  });
});

describe("evaluate 'bleu' (nmt compute_bleu)", () => {
  it("the metric card's example scores 1.0 (with or without smoothing)", () => {
    const predictions = ["hello there general kenobi", "foo bar foobar"];
    const references = [["hello there general kenobi", "hello there!"], ["foo bar foobar"]];
    const r = hfBleu(predictions, references, { smooth: false });
    expect(r.bleu).toBe(1);
    // Reference length uses the SHORTEST reference: 'hello there !' (3) + 3 = 6; translation 4 + 3 = 7.
    expect(r.referenceLength).toBe(6);
    expect(r.translationLength).toBe(7);
    expect(r.lengthRatio).toBeCloseTo(7 / 6, 15);
    expect(hfBleu(predictions, references).bleu).toBe(1);
  });

  it("smoothing adds one to matches and possible matches of every order", () => {
    // 'the cat the cat' vs 'the cat sat': matches 2 (the, cat clipped), 1 ('the cat' clipped), 0, 0 of
    // possible 4, 3, 2, 1 → p = 3/5, 2/4, 1/3, 1/2; geometric mean = (0.05)^(1/4); ratio 4/3 > 1, BP = 1.
    const r = hfBleu(["the cat the cat"], ["the cat sat"]);
    expect(r.precisions).toEqual([3 / 5, 2 / 4, 1 / 3, 1 / 2]);
    expect(r.bleu).toBeCloseTo(Math.pow(0.05, 0.25), 15); // 0.4728708045015879
    // Unsmoothed, the zero 3- and 4-gram precisions make it 0.
    expect(hfBleu(["the cat the cat"], ["the cat sat"], { smooth: false }).bleu).toBe(0);
  });

  it("brevity penalty exp(1 − 1/ratio) over corpus lengths", () => {
    // 'the cat sat' vs 'the cat sat on the mat': smoothed p_n = 4/4, 3/3, 2/2, 1/1; ratio 3/6 → BP = e^−1.
    expect(hfBleuItem("the cat sat", "the cat sat on the mat")).toBeCloseTo(Math.exp(-1), 15);
    // An empty prediction: both lengths must be positive, else BP = 0.
    expect(hfBleuItem("", "the cat")).toBe(0);
  });

  it("corpus BLEU pools statistics; it is not the mean of item scores", () => {
    const a = hfBleuStats("the cat sat", "the cat sat on the mat");
    const b = hfBleuStats("a dog ran fast today", "a dog ran");
    const pooled = hfBleuFromStats([a, b]);
    // matches 3+3, 2+2, 1+1, 0+0 of possible 3+5, 2+4, 1+3, 0+2 → (7/9, 5/7, 3/5, 1/3); lengths 8 vs 9.
    expect(pooled.precisions).toEqual([7 / 9, 5 / 7, 3 / 5, 1 / 3]);
    const geo = Math.exp(0.25 * Math.log(7 / 9) + 0.25 * Math.log(5 / 7) + 0.25 * Math.log(3 / 5) + 0.25 * Math.log(1 / 3));
    expect(pooled.bleu).toBeCloseTo(geo * Math.exp(1 - 9 / 8), 15);
    expect(hfBleu(["the cat sat", "a dog ran fast today"], ["the cat sat on the mat", "a dog ran"]).bleu).toBe(pooled.bleu);
  });
});
