/**
 * Embedding vectors as endpoints send them. The client asks for base64-packed float32 (a quarter of
 * the bytes), but some OpenAI-compatible servers ignore `encoding_format` and send a JSON array: the
 * openai SDK then decodes the array's numbers as base64 bytes and hands back garbage of a quarter of
 * the length. So the client asks for base64 explicitly (the SDK leaves the reply alone) and decodes
 * here whichever form came back.
 */
import { InvalidInputError } from "@/lib/errors";

/** A vector from the reply's `embedding`: a base64 string of float32, or an array of numbers. */
export function decodeEmbedding(v: unknown): number[] {
  if (typeof v === "string") {
    const buf = Buffer.from(v, "base64");
    if (buf.length % 4 !== 0) throw new Error(`a base64 embedding of ${buf.length} bytes is not float32 values`);
    // Copied to its own buffer: a view needs a byte offset that is a multiple of 4.
    return Array.from(new Float32Array(Uint8Array.from(buf).buffer));
  }
  if (Array.isArray(v)) return v.map(Number);
  throw new Error(`an embedding is neither base64 nor an array (${typeof v})`);
}

/** Cosine similarity; 0 when either vector is all zeros (the one definition: retrieval and the models check use it). */
export function cosine(a: readonly number[], b: readonly number[]): number {
  if (a.length !== b.length) throw new InvalidInputError(`cosine: vectors of different lengths (${a.length} and ${b.length})`);
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i] * b[i];
    na += a[i] * a[i];
    nb += b[i] * b[i];
  }
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}

/**
 * Cosine similarity with the squared norms given (normSq): what cosine(a, b) gives, to the bit (the
 * sums run in the same order), without summing a norm again for every pair.
 */
export function cosineWithNorms(a: readonly number[], na: number, b: readonly number[], nb: number): number {
  if (a.length !== b.length) throw new InvalidInputError(`cosine: vectors of different lengths (${a.length} and ${b.length})`);
  let dot = 0;
  for (let i = 0; i < a.length; i++) dot += a[i] * b[i];
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}

/**
 * The squared norm of a vector, remembered per array: cached vectors are shared arrays that callers
 * only read (cache.ts), and every retrieval over a user's logs scores the same ones again.
 */
export function normSq(v: readonly number[]): number {
  let n = norms.get(v);
  if (n === undefined) {
    n = 0;
    for (let i = 0; i < v.length; i++) n += v[i] * v[i];
    norms.set(v, n);
  }
  return n;
}
const norms = new WeakMap<readonly number[], number>();

/** What is wrong with a vector (not finite, all zeros, another dimension than `dims`), or null. */
export function vectorProblem(v: readonly number[], dims?: number): string | null {
  if (v.length === 0) return "an empty vector";
  if (dims !== undefined && v.length !== dims) return `${v.length} dimensions where the first vector had ${dims}`;
  if (!v.every(Number.isFinite)) return "values that are not finite numbers";
  if (v.every((x) => x === 0)) return "a vector of zeros";
  return null;
}
