/**
 * The agreement bootstrap as it was before lib/agreement/resample.ts: every statistic recomputed from
 * scratch on every resample of all items (cost raters² × resamples × items). Kept as the reference the
 * unit test and `npm run bench agreement` compare the report's bootstrap with.
 */
import { bootstrapCI } from "@/lib/agreement/bootstrap";
import { cohenKappa, type KappaWeights } from "@/lib/agreement/cohen";
import { fleissKappa } from "@/lib/agreement/fleiss";
import { krippendorffAlpha } from "@/lib/agreement/krippendorff";
import { percentAgreement } from "@/lib/agreement/percent";
import type { AgreementInput } from "@/lib/agreement/report";
import type { Label } from "@/lib/agreement/types";
import { mulberry32 } from "@/lib/random";

type Item = AgreementInput["items"][number];
export type RefStat = { value: number | null; ci: [number, number] | null };

export function referenceBootstrap(
  items: Item[],
  raters: string[],
  categories: Label[],
  iterations: number,
  weights: KappaWeights[] = ["quadratic"],
): { percentAgreement: RefStat; fleissKappa: RefStat; krippendorffAlpha: RefStat; pairs: RefStat[][] } {
  const present = (it: Item) => Object.values(it.ratings).filter((l): l is Label => l !== null);
  const ci = (stat: (s: readonly Item[]) => number | null): RefStat => {
    const r = bootstrapCI(items, stat, { iterations, seed: 1 });
    return { value: r.value, ci: r.lower === null ? null : [r.lower, r.upper!] };
  };
  const pair = (a: string, b: string, w: KappaWeights) => (s: readonly Item[]) => {
    const pairs = s.flatMap((it) => (it.ratings[a] != null && it.ratings[b] != null ? [[it.ratings[a]!, it.ratings[b]!] as const] : []));
    return pairs.length ? cohenKappa(pairs, { categories, weights: w }).value : null;
  };
  return {
    percentAgreement: ci((s) => percentAgreement(s.map(present)).value),
    fleissKappa: ci((s) => fleissKappa(s.map(present), categories).value),
    krippendorffAlpha: ci(
      (s) =>
        krippendorffAlpha(
          s.map((it) => raters.map((r) => it.ratings[r] ?? null)),
          { scale: "ordinal", categories },
        ).value,
    ),
    pairs: raters.flatMap((a, i) => raters.slice(i + 1).map((b) => weights.map((w) => ci(pair(a, b, w))))),
  };
}

/** Correlated ordinal ratings 1–3: each rater gives the item's true value, off by one now and then. */
export function generateRatings(nItems: number, raters: string[], perItem: number, seed: number): Item[] {
  const rand = mulberry32(seed);
  return Array.from({ length: nItems }, (_, i) => {
    const truth = 1 + Math.floor(rand() * 3);
    const who = perItem >= raters.length ? raters : [...raters].sort(() => rand() - 0.5).slice(0, perItem);
    const ratings: Record<string, Label | null> = {};
    for (const r of who) ratings[r] = rand() < 0.75 ? truth : Math.min(3, Math.max(1, truth + (rand() < 0.5 ? -1 : 1)));
    return { id: i, ratings };
  });
}
