/**
 * The agreement report of `pal metrics agreement` and the dashboards (shape in docs/cli.md). The named keys
 * (percentAgreement, fleissKappa, krippendorffAlpha, cohen[].raters/n/kappa/linearWeightedKappa/
 * quadraticWeightedKappa) are relied on elsewhere; everything else is additive.
 */
import { InvalidInputError } from "@/lib/errors";
import { bootstrapCI, type BootstrapOptions } from "./bootstrap";
import { cohenKappa, type KappaWeights } from "./cohen";
import { fleissKappa } from "./fleiss";
import { landisKoch } from "./interpret";
import { defaultCategories, krippendorffAlpha } from "./krippendorff";
import { majorityVote, type TieRule } from "./majority";
import { percentAgreement } from "./percent";
import type { Label } from "./types";

export type AgreementScale = "nominal" | "ordinal" | "interval";
export const AGREEMENT_SCALES: readonly AgreementScale[] = ["nominal", "ordinal", "interval"];

export interface AgreementInput {
  scale: AgreementScale;
  /** Ordered for ordinal scales. Optional for nominal data (then: order of first appearance). */
  categories?: Label[];
  items: Array<{ id?: string | number; ratings: Record<string, Label | null> }>;
}

export type CohenKey = "kappa" | "linearWeightedKappa" | "quadraticWeightedKappa";

export interface CohenPairReport {
  raters: [string, string];
  /** Items both raters rated. */
  n: number;
  kappa: number | null;
  linearWeightedKappa: number | null;
  quadraticWeightedKappa: number | null;
  /** Why a value is null. */
  reasons?: Partial<Record<CohenKey, string>>;
  ci?: Partial<Record<CohenKey, Interval | null>>;
}

export type Interval = [number, number];
export type OverallKey = "percentAgreement" | "fleissKappa" | "krippendorffAlpha";

export interface AgreementReport {
  percentAgreement: number | null;
  fleissKappa: number | null;
  krippendorffAlpha: number | null;
  cohen: CohenPairReport[];
  scale: AgreementScale;
  categories: Label[];
  items: number;
  raters: string[];
  /** Why an overall value is null. */
  reasons: Partial<Record<OverallKey, string>>;
  /** Landis–Koch reading of the kappas and alpha. */
  interpretation: { fleissKappa: string | null; krippendorffAlpha: string | null };
  /** Percentile bootstrap intervals over items, when asked for. */
  bootstrap?: { iterations: number; seed: number; level: number; ci: Partial<Record<OverallKey, Interval | null>> };
  /** Majority-vote label per item, when asked for. */
  majority?: { tieRule: TieRule; items: Array<{ id: string | number; label: Label | null; tied: boolean }> };
}

export interface AgreementReportOptions {
  bootstrap?: BootstrapOptions;
  majority?: { tieRule?: TieRule; tieLabel?: Label };
}

/** Bad input: the message names the offending place (e.g. `ratings.json: items[3].ratings.ann: ...`). */
export class AgreementInputError extends InvalidInputError {}

const isLabel = (x: unknown): x is Label => typeof x === "string" || (typeof x === "number" && Number.isFinite(x));

/** Validates parsed JSON into an AgreementInput, with the categories resolved. */
export function parseAgreementInput(json: unknown, source?: string): AgreementInput & { categories: Label[] } {
  const fail = (msg: string): never => {
    throw new AgreementInputError(source ? `${source}: ${msg}` : msg);
  };
  if (typeof json !== "object" || json === null || Array.isArray(json)) fail("expected a JSON object");
  const o = json as Record<string, unknown>;
  const scale = o.scale;
  if (!AGREEMENT_SCALES.includes(scale as AgreementScale))
    fail(`scale: expected one of ${AGREEMENT_SCALES.join(", ")}, got ${JSON.stringify(scale)}`);
  if (!Array.isArray(o.items)) fail("items: expected an array");
  const items = (o.items as unknown[]).map((it, i) => {
    if (typeof it !== "object" || it === null || Array.isArray(it)) fail(`items[${i}]: expected an object`);
    const { id, ratings } = it as Record<string, unknown>;
    if (id !== undefined && typeof id !== "string" && typeof id !== "number") fail(`items[${i}].id: expected a string or number`);
    if (typeof ratings !== "object" || ratings === null || Array.isArray(ratings))
      fail(`items[${i}].ratings: expected an object of rater → label`);
    for (const [rater, label] of Object.entries(ratings as object)) {
      if (label !== null && !isLabel(label)) fail(`items[${i}].ratings.${rater}: expected a string, number or null`);
    }
    return { ...(id !== undefined ? { id: id as string | number } : {}), ratings: ratings as Record<string, Label | null> };
  });
  const used = items.flatMap((it) => Object.values(it.ratings).filter((l): l is Label => l !== null));

  let categories: Label[];
  if (o.categories === undefined) {
    categories = defaultCategories(used);
    if (scale !== "nominal" && categories.some((c) => typeof c !== "number" && !Number.isFinite(Number(c)))) {
      fail(`categories: required, in order, for the ${String(scale)} scale with non-numeric labels`);
    }
  } else {
    if (!Array.isArray(o.categories) || !o.categories.every(isLabel)) fail("categories: expected an array of strings or numbers");
    categories = o.categories as Label[];
    const seen = new Set<string>();
    for (const c of categories) {
      if (seen.has(String(c))) fail(`categories: "${String(c)}" is listed twice`);
      seen.add(String(c));
    }
    items.forEach((it, i) => {
      for (const [rater, label] of Object.entries(it.ratings)) {
        if (label !== null && !seen.has(String(label)))
          fail(`items[${i}].ratings.${rater}: label ${JSON.stringify(label)} is not in categories`);
      }
    });
  }
  return { scale: scale as AgreementScale, categories, items };
}

function ratersOf(items: AgreementInput["items"]): string[] {
  const seen = new Set<string>();
  for (const it of items) for (const r of Object.keys(it.ratings)) seen.add(r);
  return [...seen];
}

type Item = AgreementInput["items"][number];
const present = (it: Item): Label[] => Object.values(it.ratings).filter((l): l is Label => l !== null);

function overall(items: readonly Item[], scale: AgreementScale, categories: Label[], raters: string[]) {
  const lists = items.map(present);
  const pa = percentAgreement(lists);
  const fk = fleissKappa(lists, categories);
  const ka = krippendorffAlpha(
    items.map((it) => raters.map((r) => it.ratings[r] ?? null)),
    { scale, categories },
  );
  return { pa, fk, ka };
}

function cohenPair(items: readonly Item[], a: string, b: string, scale: AgreementScale, categories: Label[]) {
  const pairs: Array<[Label, Label]> = [];
  for (const it of items) {
    const x = it.ratings[a];
    const y = it.ratings[b];
    if (x !== null && x !== undefined && y !== null && y !== undefined) pairs.push([x, y]);
  }
  const k = (weights: KappaWeights) => cohenKappa(pairs, { categories, weights });
  const ordered = scale !== "nominal";
  return {
    n: pairs.length,
    kappa: k("none"),
    linearWeightedKappa: ordered ? k("linear") : { value: null, reason: "weighted kappa applies to ordered scales" },
    quadraticWeightedKappa: ordered ? k("quadratic") : { value: null, reason: "weighted kappa applies to ordered scales" },
  };
}

const COHEN_KEYS: CohenKey[] = ["kappa", "linearWeightedKappa", "quadraticWeightedKappa"];

/** The agreement report (docs/cli.md) for already-parsed input (see `parseAgreementInput`). */
export function agreementReport(input: AgreementInput, opts: AgreementReportOptions = {}): AgreementReport {
  const { scale, items } = input;
  const categories = input.categories ?? defaultCategories(items.flatMap(present));
  const raters = ratersOf(items);
  const { pa, fk, ka } = overall(items, scale, categories, raters);

  const reasons: AgreementReport["reasons"] = {};
  if (pa.reason) reasons.percentAgreement = pa.reason;
  if (fk.reason) reasons.fleissKappa = fk.reason;
  if (ka.reason) reasons.krippendorffAlpha = ka.reason;

  const cohen: CohenPairReport[] = [];
  for (let i = 0; i < raters.length; i++) {
    for (let j = i + 1; j < raters.length; j++) {
      const c = cohenPair(items, raters[i], raters[j], scale, categories);
      const entry: CohenPairReport = {
        raters: [raters[i], raters[j]],
        n: c.n,
        kappa: c.kappa.value,
        linearWeightedKappa: c.linearWeightedKappa.value,
        quadraticWeightedKappa: c.quadraticWeightedKappa.value,
      };
      const why: CohenPairReport["reasons"] = {};
      for (const key of COHEN_KEYS) if (c[key].reason) why[key] = c[key].reason;
      if (Object.keys(why).length) entry.reasons = why;
      cohen.push(entry);
    }
  }

  const report: AgreementReport = {
    percentAgreement: pa.value,
    fleissKappa: fk.value,
    krippendorffAlpha: ka.value,
    cohen,
    scale,
    categories,
    items: items.length,
    raters,
    reasons,
    interpretation: { fleissKappa: landisKoch(fk.value), krippendorffAlpha: landisKoch(ka.value) },
  };

  if (opts.bootstrap) {
    const interval = (stat: (sample: readonly Item[]) => number | null): Interval | null => {
      const ci = bootstrapCI(items, stat, opts.bootstrap);
      return ci.lower === null || ci.upper === null ? null : [ci.lower, ci.upper];
    };
    report.bootstrap = {
      iterations: opts.bootstrap.iterations ?? 1000,
      seed: opts.bootstrap.seed ?? 1,
      level: opts.bootstrap.level ?? 0.95,
      ci: {
        percentAgreement: interval((s) => percentAgreement(s.map(present)).value),
        fleissKappa: interval((s) => fleissKappa(s.map(present), categories).value),
        krippendorffAlpha: interval(
          (s) =>
            krippendorffAlpha(
              s.map((it) => raters.map((r) => it.ratings[r] ?? null)),
              { scale, categories },
            ).value,
        ),
      },
    };
    for (const entry of cohen) {
      const [a, b] = entry.raters;
      entry.ci = {};
      for (const key of COHEN_KEYS) {
        if (entry[key] === null) entry.ci[key] = null;
        else entry.ci[key] = interval((s) => cohenPair(s, a, b, scale, categories)[key].value);
      }
    }
  }

  if (opts.majority) {
    const tieRule = opts.majority.tieRule ?? "tie";
    report.majority = {
      tieRule,
      items: items.map((it, i) => {
        const m = majorityVote(present(it), { tieRule, tieLabel: opts.majority?.tieLabel, order: categories });
        return { id: it.id ?? i, label: m.label, tied: m.tied };
      }),
    };
  }
  return report;
}
