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
