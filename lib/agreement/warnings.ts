/**
 * Warnings read beside the agreement figures (docs/metrics.md, "Honest statistics"): numbers that are
 * computed but easy to over-read. Each names its dimension and says what to do with the number.
 */
import type { AgreementReport } from "./report";
import type { Label } from "./types";

export type AgreementWarningKind =
  | "small-n"
  | "prevalence-paradox"
  | "fleiss-subset"
  | "constant-rater"
  | "constant-judge"
  /** The campaign was created although what annotators read names a system it compares (dimension "*": all). */
  | "unblinded";

export interface AgreementWarning {
  dimension: string;
  kind: AgreementWarningKind;
  message: string;
}

/** Below this many items with two or more ratings, intervals are wide. */
export const SMALL_N = 30;
/** The prevalence paradox: percent agreement at least this high... */
export const PARADOX_AGREEMENT = 0.8;
/** ...with kappa (Fleiss', else Krippendorff's alpha) below this. */
export const PARADOX_KAPPA = 0.4;

const pct = (x: number) => `${Math.round(x * 100)}%`;

export function reportWarnings(
  dimension: string,
  r: AgreementReport,
  o: {
    /** Items with two or more ratings. */
    paired: number;
    /** Label counts over every rating, to name the dominant category. */
    distribution: Record<string, number>;
    /** Each rater's labels. */
    perRater: Record<string, Record<string, number>>;
  },
): AgreementWarning[] {
  const out: AgreementWarning[] = [];
  const add = (kind: AgreementWarningKind, message: string) => out.push({ dimension, kind, message });
  if (o.paired > 0 && o.paired < SMALL_N)
    add(
      "small-n",
      `only ${o.paired} items have two or more ratings (fewer than ${SMALL_N}): the intervals are wide, read the kappas as rough`,
    );
  const kappa = r.fleissKappa ?? r.krippendorffAlpha;
  if (r.percentAgreement !== null && r.percentAgreement >= PARADOX_AGREEMENT && kappa !== null && kappa < PARADOX_KAPPA) {
    const total = Object.values(o.distribution).reduce((a, b) => a + b, 0);
    const [top, count] = Object.entries(o.distribution).sort((a, b) => b[1] - a[1])[0] ?? ["", 0];
    add(
      "prevalence-paradox",
      `annotators agree on ${pct(r.percentAgreement)} of pairs but ${r.fleissKappa !== null ? "Fleiss' κ" : "Krippendorff's α"} is ${kappa.toFixed(2)}: ` +
        `"${top}" makes up ${total ? pct(count / total) : "most"} of the labels, so chance agreement is high (the prevalence paradox); report percent agreement beside κ`,
    );
  }
  const f = r.fleissItems;
  if (f.leftOut > 0 && f.used > 0)
    add(
      "fleiss-subset",
      `Fleiss' κ is over the ${f.used} of ${r.items} items with all ${f.ratingsPerItem} ratings (${f.leftOut} with fewer left out); Krippendorff's α uses every item`,
    );
  for (const [rater, counts] of Object.entries(o.perRater)) {
    const used = Object.entries(counts).filter(([, n]) => n > 0);
    const n = used.reduce((a, [, c]) => a + c, 0);
    if (used.length === 1 && n >= 2)
      add("constant-rater", `${rater} gave "${used[0][0]}" on all ${n} items: their kappas are undefined (constant ratings), not poor`);
  }
  return out;
}

/** A judge run that gave one value throughout on a dimension. */
export function constantJudgeWarning(dimension: string, run: string, values: readonly Label[]): AgreementWarning | null {
  const distinct = new Set(values.map(String));
  if (values.length < 2 || distinct.size !== 1) return null;
  return {
    dimension,
    kind: "constant-judge",
    message: `judge ${run} gave "${[...distinct][0]}" on all ${values.length} items: its kappa is undefined (constant ratings), not poor`,
  };
}
