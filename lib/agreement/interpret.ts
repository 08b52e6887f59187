/** Verbal readings of agreement coefficients, shown beside the values. */

/**
 * Landis & Koch (1977): ≤ 0 poor, ≤ .20 slight, ≤ .40 fair, ≤ .60 moderate, ≤ .80 substantial, else
 * almost perfect. Mem-PAL's wording ("0.40 < κ ≤ 0.60 moderate, 0.61 < κ ≤ 0.80 substantial", citing
 * McHugh 2012, who lists Cohen's bands) is this scale.
 */
export function landisKoch(k: number | null): string | null {
  if (k === null) return null;
  if (k <= 0) return "poor";
  if (k <= 0.2) return "slight";
  if (k <= 0.4) return "fair";
  if (k <= 0.6) return "moderate";
  if (k <= 0.8) return "substantial";
  return "almost perfect";
}

/** McHugh's (2012) stricter table: .00–.20 none, .21–.39 minimal, .40–.59 weak, .60–.79 moderate, .80–.90 strong, above .90 almost perfect. */
export function mcHugh(k: number | null): string | null {
  if (k === null) return null;
  if (k <= 0.2) return "none";
  if (k < 0.4) return "minimal";
  if (k < 0.6) return "weak";
  if (k < 0.8) return "moderate";
  if (k <= 0.9) return "strong";
  return "almost perfect";
}

const LANDIS_KOCH_BANDS = ["poor", "slight", "fair", "moderate", "substantial", "almost perfect"];

/**
 * The Landis–Koch reading of a value with its interval (issue 34.6): one word when the interval stays in
 * the value's band; "moderate to substantial" when it spans two; and when it spans three or more, that
 * it cannot be read as one band ("slight to almost perfect: spans 5 bands") — "substantial" beside
 * [0.10, 1.00] says more than the data do.
 */
export function landisKochReading(value: number | null, ci?: readonly [number, number] | null): string | null {
  const word = landisKoch(value);
  if (word === null || !ci) return word;
  const lo = LANDIS_KOCH_BANDS.indexOf(landisKoch(ci[0])!);
  const hi = LANDIS_KOCH_BANDS.indexOf(landisKoch(ci[1])!);
  if (lo === hi) return word;
  const span = `${LANDIS_KOCH_BANDS[lo]} to ${LANDIS_KOCH_BANDS[hi]}`;
  return hi - lo + 1 >= 3 ? `${span}: the interval spans ${hi - lo + 1} bands` : span;
}
