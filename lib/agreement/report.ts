/**
 * The agreement report of `pal metrics agreement` and the dashboards (shape in docs/cli.md). The named keys
 * (percentAgreement, fleissKappa, krippendorffAlpha, cohen[].raters/n/kappa/linearWeightedKappa/
 * quadraticWeightedKappa) are relied on elsewhere; everything else is additive.
 */
import { InvalidInputError } from "@/lib/errors";
import type { BootstrapOptions } from "./bootstrap";
import { cohenKappaTable, type KappaWeights } from "./cohen";
import { fleissKappa } from "./fleiss";
import { landisKoch, tooFewItems } from "./interpret";
import { defaultCategories, krippendorffAlpha } from "./krippendorff";
import { majorityVote, type TieRule } from "./majority";
import { percentAgreement } from "./percent";
import { bootstrapOverall, bootstrapPair, prepareItems, type Prepared } from "./resample";
import { runSteps, type Steps } from "./steps";
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
  /**
   * Fleiss' kappa needs the same number of ratings on every item: it is taken over the items with
   * `ratingsPerItem` ratings (the campaign's, or the most common count); `leftOut` items are not in it.
   */
  fleissItems: { used: number; ratingsPerItem: number; leftOut: number };
  /**
   * Items with two or more ratings: the n behind percent agreement and alpha. Below MIN_ITEMS_FOR_INTERVAL
   * (./interpret.ts) a statistic gets no interval and no reading (issue 44.4); Fleiss' n is fleissItems.used,
   * a Cohen pair's its own n.
   */
  pairedItems?: number;
  /** Fleiss' kappa's 95% bootstrap interval (the same as bootstrap.ci.fleissKappa), when asked for. */
  fleissCi?: Interval | null;
  /** Percentile bootstrap intervals over items, when asked for. */
  bootstrap?: { iterations: number; seed: number; level: number; ci: Partial<Record<OverallKey, Interval | null>> };
  /** Majority-vote label per item, when asked for. */
  majority?: { tieRule: TieRule; items: Array<{ id: string | number; label: Label | null; tied: boolean }> };
}

export interface AgreementReportOptions {
  bootstrap?: BootstrapOptions;
  /** The complete number of ratings per item (a campaign's k); default: the most common count. */
  ratingsPerItem?: number;
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

/** The most common number of ratings among items with two or more (the larger on a tie); null when none has two. */
export function modalRatingsPerItem(counts: readonly number[]): number | null {
  const freq = new Map<number, number>();
  for (const m of counts) if (m >= 2) freq.set(m, (freq.get(m) ?? 0) + 1);
  let best: number | null = null;
  for (const [m, f] of freq) if (best === null || f > freq.get(best)! || (f === freq.get(best)! && m > best)) best = m;
  return best;
}

const COHEN_KEYS: CohenKey[] = ["kappa", "linearWeightedKappa", "quadraticWeightedKappa"];
const WEIGHTS: Record<CohenKey, KappaWeights> = { kappa: "none", linearWeightedKappa: "linear", quadraticWeightedKappa: "quadratic" };

function cohenEntry(p: Prepared, a: number, b: number, scale: AgreementScale): CohenPairReport {
  const K = p.K;
  const cells = p.pairCells.get(a * p.raters.length + b) ?? [];
  const table = Array.from({ length: K }, () => new Array<number>(K).fill(0));
  for (const cell of cells) table[Math.floor(cell / K)][cell % K]++;
  const entry: CohenPairReport = {
    raters: [p.raters[a], p.raters[b]],
    n: cells.length,
    kappa: null,
    linearWeightedKappa: null,
    quadraticWeightedKappa: null,
  };
  const why: CohenPairReport["reasons"] = {};
  for (const key of COHEN_KEYS) {
    if (key !== "kappa" && scale === "nominal") {
      why[key] = "weighted kappa applies to ordered scales";
      continue;
    }
    const r = cohenKappaTable(table, WEIGHTS[key]);
    entry[key] = r.value;
    if (r.reason) why[key] = r.reason;
  }
  if (Object.keys(why).length) entry.reasons = why;
  return entry;
}

/** The agreement report (docs/cli.md) for already-parsed input (see `parseAgreementInput`). */
export function agreementReport(input: AgreementInput, opts: AgreementReportOptions = {}): AgreementReport {
  return runSteps(agreementReportSteps(input, opts));
}

/**
 * The report as steps (lib/agreement/steps.ts). Its cost is linear in the labels: every item's ratings are
 * tabulated once (./resample.ts); the overall bootstrap draws items and adds their precomputed tables, and
 * each rater pair's bootstrap draws only the items that pair shares (a pair with none costs nothing).
 */
export function* agreementReportSteps(input: AgreementInput, opts: AgreementReportOptions = {}): Steps<AgreementReport> {
  const { scale, items } = input;
  const categories = input.categories ?? defaultCategories(items.flatMap(present));
  const raters = ratersOf(items);
  const lists = items.map(present);
  const pa = percentAgreement(lists);
  yield;
  const ratingsPerItem = opts.ratingsPerItem ?? modalRatingsPerItem(lists.map((l) => l.length));
  const complete = ratingsPerItem === null ? [] : lists.filter((l) => l.length === ratingsPerItem);
  const fk =
    ratingsPerItem === null
      ? { value: null, reason: "no item has two or more ratings" }
      : complete.length === 0
        ? { value: null, reason: `no item has all ${ratingsPerItem} ratings yet` }
        : fleissKappa(complete, categories);
  yield;
  const kaUnits = items.map((it) => raters.map((r) => it.ratings[r] ?? null));
  yield;
  const ka = krippendorffAlpha(kaUnits, { scale, categories });
  yield;

  const reasons: AgreementReport["reasons"] = {};
  if (pa.reason) reasons.percentAgreement = pa.reason;
  if (fk.reason) reasons.fleissKappa = fk.reason;
  if (ka.reason) reasons.krippendorffAlpha = ka.reason;

  const prepared = prepareItems(items, raters, categories, scale, ratingsPerItem ?? 0);
  yield;
  const cohen: CohenPairReport[] = [];
  for (let i = 0; i < raters.length; i++) {
    for (let j = i + 1; j < raters.length; j++) cohen.push(cohenEntry(prepared, i, j, scale));
    yield;
  }

  const paired = lists.filter((l) => l.length >= 2).length;
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
    interpretation: {
      fleissKappa: tooFewItems(complete.length) ? null : landisKoch(fk.value),
      krippendorffAlpha: tooFewItems(paired) ? null : landisKoch(ka.value),
    },
    fleissItems: { used: complete.length, ratingsPerItem: ratingsPerItem ?? 0, leftOut: items.length - complete.length },
    pairedItems: paired,
  };

  if (opts.bootstrap) {
    const b = { iterations: opts.bootstrap.iterations ?? 1000, seed: opts.bootstrap.seed ?? 1, level: opts.bootstrap.level ?? 0.95 };
    const ci = yield* bootstrapOverall(prepared, b);
    // Too few items: the estimate stands alone, no interval (issue 44.4).
    if (tooFewItems(complete.length) && ci.fleissKappa) ci.fleissKappa = null;
    if (tooFewItems(paired)) for (const k of ["percentAgreement", "krippendorffAlpha"] as const) if (ci[k]) ci[k] = null;
    report.bootstrap = { ...b, ci };
    report.fleissCi = ci.fleissKappa ?? null;
    for (let i = 0, at = 0; i < raters.length; i++) {
      for (let j = i + 1; j < raters.length; j++, at++) {
        const entry = cohen[at];
        const keys = tooFewItems(entry.n) ? [] : COHEN_KEYS.filter((key) => entry[key] !== null);
        const pairCi = keys.length
          ? yield* bootstrapPair(
              prepared,
              i,
              j,
              keys.map((key) => WEIGHTS[key]),
              b,
            )
          : [];
        entry.ci = Object.fromEntries(COHEN_KEYS.map((key) => [key, keys.includes(key) ? pairCi[keys.indexOf(key)] : null]));
        yield;
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
