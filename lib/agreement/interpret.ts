/** Verbal readings of agreement coefficients, shown beside the values. */

/**
 * Below this many items a kappa is shown bare: no interval and no Landis–Koch word, only the estimate, n and
 * TOO_FEW_TEXT (issue 44.4). Source: a percentile bootstrap over n items has at most C(2n−1, n) distinct
 * resamples (n = 3: 10; n = 10: 92,378) and its percentile interval under-covers at small n (Efron &
 * Tibshirani 1993, An Introduction to the Bootstrap, ch. 13); "−0.800 poor" at n = 3 reads as a finding.
 * The threshold 10 is PAL Studio's rule, stated in docs/metrics.md.
 */
export const MIN_ITEMS_FOR_INTERVAL = 10;
export const MIN_ITEMS_SOURCE =
  "PAL Studio's rule: a bootstrap over fewer items has too few distinct resamples for a 95% interval (Efron & Tibshirani 1993, ch. 13)";
export const TOO_FEW_TEXT = "too few items for an interval";

/** True when n (items behind a statistic) is below MIN_ITEMS_FOR_INTERVAL; an unknown n is not "too few". */
export function tooFewItems(n: number | null | undefined): boolean {
  return typeof n === "number" && n < MIN_ITEMS_FOR_INTERVAL;
}

/** The note shown instead of an interval and a reading: "too few items for an interval (n = 3 < 10)". */
export function tooFewNote(n: number): string {
  return `${TOO_FEW_TEXT} (n = ${n} < ${MIN_ITEMS_FOR_INTERVAL})`;
}

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
 * [0.10, 1.00] says more than the data do. With n below MIN_ITEMS_FOR_INTERVAL: null.
 */
export function landisKochReading(value: number | null, ci?: readonly [number, number] | null, n?: number | null): string | null {
  // Too few items: no word at all (issue 44.4), whatever the value.
  if (tooFewItems(n)) return null;
  const word = landisKoch(value);
  if (word === null || !ci) return word;
  const lo = LANDIS_KOCH_BANDS.indexOf(landisKoch(ci[0])!);
  const hi = LANDIS_KOCH_BANDS.indexOf(landisKoch(ci[1])!);
  if (lo === hi) return word;
  const span = `${LANDIS_KOCH_BANDS[lo]} to ${LANDIS_KOCH_BANDS[hi]}`;
  return hi - lo + 1 >= 3 ? `${span}: the interval spans ${hi - lo + 1} bands` : span;
}
