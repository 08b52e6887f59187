/**
 * Correctly rounded floating-point sum (the semantics of Python's `math.fsum`), so that the
 * log-precision sums in BLEU round exactly as NLTK's do. Shewchuk's exact partials, then the
 * round-half-even correction on the final partials.
 */
export function fsum(values: Iterable<number>): number {
  const partials: number[] = [];
  for (let x of values) {
    let i = 0;
    for (let j = 0; j < partials.length; j++) {
      let y = partials[j];
      if (Math.abs(x) < Math.abs(y)) {
        const t = x;
        x = y;
        y = t;
      }
      const hi = x + y;
      const lo = y - (hi - x);
      if (lo !== 0) partials[i++] = lo;
      x = hi;
    }
    partials.length = i;
    partials.push(x);
  }
  let n = partials.length;
  if (n === 0) return 0;
  // Non-finite partials: fall back to the plain sum (Infinity/NaN propagate as in IEEE arithmetic).
  if (!partials.every(Number.isFinite)) return partials.reduce((a, b) => a + b, 0);
  let hi = partials[--n];
  let lo = 0;
  while (n > 0) {
    const x = hi;
    const y = partials[--n];
    hi = x + y;
    lo = y - (hi - x);
    if (lo !== 0) break;
  }
  // If the discarded remainder pushes past a half-way point, round the other way (half-even).
  if (n > 0 && ((lo < 0 && partials[n - 1] < 0) || (lo > 0 && partials[n - 1] > 0))) {
    const y = lo * 2;
    const x = hi + y;
    if (y === x - hi) hi = x;
  }
  return hi;
}
