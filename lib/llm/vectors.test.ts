import { describe, expect, it } from "vitest";
import { cosine, decodeEmbedding, vectorProblem } from "./vectors";

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
});
