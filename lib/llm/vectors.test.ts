import { describe, expect, it } from "vitest";
import { cosine, cosineWithNorms, decodeEmbedding, normSq, vectorProblem } from "./vectors";

describe("embedding vectors as servers send them", () => {
  it("decodes base64 float32 and takes arrays as they are; refuses what is neither", () => {
    const v = [0.5, -0.25, 1, 0];
    expect(decodeEmbedding(Buffer.from(new Float32Array(v).buffer).toString("base64"))).toEqual(v);
    expect(decodeEmbedding(v)).toEqual(v);
    expect(() => decodeEmbedding(Buffer.from([1, 2, 3]).toString("base64"))).toThrow(/3 bytes is not float32/);
    expect(() => decodeEmbedding({})).toThrow(/neither base64 nor an array/);
  });

  it("names what makes a vector unusable", () => {
    expect(vectorProblem([0.1, 0.2])).toBeNull();
    expect(vectorProblem([0.1, 0.2], 3)).toBe("2 dimensions where the first vector had 3");
    expect(vectorProblem([NaN, 1])).toBe("values that are not finite numbers");
    expect(vectorProblem([0, 0])).toBe("a vector of zeros");
    expect(vectorProblem([])).toBe("an empty vector");
    expect(cosine([1, 0], [1, 0])).toBe(1);
    expect(cosine([1, 0], [0, 1])).toBe(0);
  });

  it("cosine with remembered norms gives cosine's value to the bit", () => {
    let seed = 7;
    const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648) * 2 - 1;
    const vs = Array.from({ length: 40 }, () => Array.from({ length: 33 }, () => Math.fround(rnd())));
    vs.push(new Array(33).fill(0));
    for (const a of vs) for (const b of vs) expect(Object.is(cosineWithNorms(a, normSq(a), b, normSq(b)), cosine(a, b))).toBe(true);
    expect(normSq(vs[0])).toBe(normSq(vs[0]));
    expect(() => cosineWithNorms([1], 1, [1, 2], 5)).toThrow(/different lengths/);
  });
});
