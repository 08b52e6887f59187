/**
 * Two small data structures for the BLEU hot path, where JavaScript Maps dominated the cost:
 * - `TokenIds`: per-comparison ids 1..V for tokens, through a process-wide string → id map (strings
 *   are hashed once per call) and stamped local slots (no clearing between calls);
 * - `CodeCounter`: an open-addressing hash table from exact numeric n-gram codes (< 2^53) to counts,
 *   reset in O(1) by a generation stamp.
 */

/** Process-wide vocabulary; reset when it grows past this, to bound memory in long-lived servers. */
const MAX_GLOBAL_TOKENS = 1 << 20;

export class TokenIds {
  private global = new Map<string, number>();
  private stamp = new Int32Array(1024);
  private local = new Int32Array(1024);
  private gen = 0;
  /** Distinct tokens seen since `begin()`. */
  size = 0;

  /** Starts a new comparison: local ids restart at 1. */
  begin(): void {
    if (this.global.size > MAX_GLOBAL_TOKENS || this.gen === 0x7fffffff) {
      this.global.clear();
      this.stamp.fill(0);
      this.gen = 0;
    }
    this.gen++;
    this.size = 0;
  }

  ids(tokens: readonly string[]): Int32Array {
    const out = new Int32Array(tokens.length);
    for (let i = 0; i < tokens.length; i++) {
      let g = this.global.get(tokens[i]);
      if (g === undefined) {
        g = this.global.size;
        this.global.set(tokens[i], g);
        if (g >= this.stamp.length) this.grow(g + 1);
      }
      if (this.stamp[g] !== this.gen) {
        this.stamp[g] = this.gen;
        this.local[g] = ++this.size;
      }
      out[i] = this.local[g];
    }
    return out;
  }

  private grow(min: number): void {
    let cap = this.stamp.length;
    while (cap < min) cap *= 2;
    const s = new Int32Array(cap);
    s.set(this.stamp);
    const l = new Int32Array(cap);
    l.set(this.local);
    this.stamp = s;
    this.local = l;
  }
}

export class CodeCounter {
  private keys = new Float64Array(256);
  private counts = new Int32Array(256);
  private stamps = new Int32Array(256);
  private gen = 0;
  private mask = 255;
  private shift = 24;

  /** Empties the table, sized for about `expected` distinct codes. */
  reset(expected: number): void {
    let cap = this.keys.length;
    if (cap < expected * 2) {
      while (cap < expected * 2) cap *= 2;
      this.keys = new Float64Array(cap);
      this.counts = new Int32Array(cap);
      this.stamps = new Int32Array(cap);
      this.mask = cap - 1;
      this.shift = 32 - Math.log2(cap);
      this.gen = 0;
    }
    if (this.gen === 0x7fffffff) {
      this.stamps.fill(0);
      this.gen = 0;
    }
    this.gen++;
  }

  private slot(code: number): number {
    // Mix both 32-bit halves (ToUint32 is exact modulo 2^32 for integers), Fibonacci hashing.
    const lo = code >>> 0;
    const hi = (code / 4294967296) >>> 0;
    return Math.imul(lo ^ Math.imul(hi, 0x85ebca6b), 0x9e3779b1) >>> this.shift;
  }

  add(code: number): void {
    let i = this.slot(code);
    for (;;) {
      if (this.stamps[i] !== this.gen) {
        this.stamps[i] = this.gen;
        this.keys[i] = code;
        this.counts[i] = 1;
        return;
      }
      if (this.keys[i] === code) {
        this.counts[i]++;
        return;
      }
      i = (i + 1) & this.mask;
    }
  }

  /** −1 when the code is absent; else 1 after taking one occurrence, or 0 when all are taken. */
  take(code: number): number {
    let i = this.slot(code);
    for (;;) {
      if (this.stamps[i] !== this.gen) return -1;
      if (this.keys[i] === code) {
        if (this.counts[i] === 0) return 0;
        this.counts[i]--;
        return 1;
      }
      i = (i + 1) & this.mask;
    }
  }
}
