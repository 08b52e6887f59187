/**
 * Each judge run of a campaign against its humans, per dimension, with 95% bootstrap intervals, for the
 * agreement dashboard (docs/annotation.md). Pairwise kinds: Mem-PAL Table 11's comparison (the humans'
 * majority, split votes a Tie; items both call a tie dropped), Cohen's and Fleiss' kappa. Rating kinds: the
 * judge paired with every human label, Cohen's kappa (./rating-vs-judge.ts). Pairwise dialogue campaigns
 * also get the run's best tie margin (./calibration.ts).
 */
import { CONSTANT_RATINGS, constantJudgeWarning, type AgreementWarning, type Label, type Steps } from "@/lib/agreement";
import { tooFewItems } from "@/lib/agreement/interpret";
import { bootstrapCells, fleissOfPairTable, type Interval } from "@/lib/agreement/resample";
import { kappaOfTable } from "@/lib/agreement/cohen";
import { withBestMargin } from "./calibration";
import type { ItemLabels } from "./human-labels";
import { choiceKey, type JudgedRun, type JudgeViews } from "./judge-views";
import { kindDef, type DimensionSpec } from "./kinds";

export interface JudgeStat {
  value: number | null;
  reason?: string;
  ci: Interval | null;
}

export interface JudgeAgreement {
  run: { id: number; name: string };
  dimension: string;
  /** "table11": pairwise, ties dropped; "ratings": every (judge, human label) pair. */
  method: "table11" | "ratings";
  /** Items (table11) or pairs (ratings) compared. */
  n: number;
  cohen: JudgeStat;
  /** Pairwise only (the paper's kappa for Table 11). */
  fleiss?: JudgeStat;
  droppedTies?: number;
  /** Pairwise dialogue: the tie margin that agrees best with the humans (Cohen κ, all items), when it can be derived. */
  bestMargin?: number | null;
}

function stat(v: number | string, ci: Interval | null): JudgeStat {
  return typeof v === "number" ? { value: v, ci } : { value: null, reason: v, ci: null };
}

/** Fleiss' kappa of two raters, undefined with Cohen's when one of them is constant (lib/agreement/judge-vs-human.ts). */
function fleissWithRule(t: Float64Array, K: number): number | string {
  const c = kappaOfTable(t, K, "none");
  return typeof c === "string" && c.startsWith(CONSTANT_RATINGS) ? c : fleissOfPairTable(t, K);
}

/** Plans from the runs' labels and the judge views (./judge-views.ts) already computed; the returned steps compute the intervals. */
export function judgeAgreementSteps(
  kind: string,
  items: readonly ItemLabels[],
  runs: readonly JudgedRun[],
  dims: readonly DimensionSpec[],
  views: JudgeViews,
  o: { iterations: number; seed: number },
): Steps<{ judges: JudgeAgreement[]; warnings: AgreementWarning[] }> {
  const pairwise = kindDef(kind).pairwise;
  type Plan = { entry: Omit<JudgeAgreement, "cohen" | "fleiss">; cells: number[]; K: number; judgeValues: Label[] };
  const plans: Plan[] = [];
  const table11 = views.table11[choiceKey("vote", "both")] ?? [];
  const calibration = views.calibration[choiceKey("vote", "both")] ?? [];
  for (const { run, labels: judge } of runs) {
    if (judge.size === 0) continue;
    if (pairwise) {
      const curves = calibration.find((c) => c.run.id === run.id);
      const best = kind === "pairwise-dialogue" && curves ? withBestMargin(curves, "cohen-plain").best : undefined;
      for (const d of table11.find((t) => t.run.id === run.id)?.dimensions ?? []) {
        const { table, droppedTies } = d.result;
        const K = table.categories.length;
        const tie = table.categories.findIndex((c) => String(c) === "Tie");
        const cells: number[] = [];
        const judgeValues: Label[] = [];
        table.counts.forEach((row, i) =>
          row.forEach((count, j) => {
            // Table 11: an item both call a tie is dropped.
            for (let x = 0; x < count; x++) {
              judgeValues.push(table.categories[i]);
              if (!(i === tie && j === tie)) cells.push(i * K + j);
            }
          }),
        );
        // A run that gave no verdict on this dimension has nothing to compare.
        if (!judgeValues.length) continue;
        plans.push({
          entry: {
            run: { id: run.id, name: run.name },
            dimension: d.dimension,
            method: "table11",
            n: cells.length,
            droppedTies,
            ...(best !== undefined ? { bestMargin: best } : {}),
          },
          cells,
          K,
          judgeValues,
        });
      }
    } else {
      for (const d of dims) {
        const categories = d.categories.map((c) => c.value);
        const index = new Map(categories.map((c, i) => [String(c), i]));
        const K = categories.length;
        const cells: number[] = [];
        const judgeValues: Label[] = [];
        for (const it of items) {
          const j = judge.get(it.itemId)?.[d.key]?.value;
          const humans = Object.values(it.human[d.key] ?? {});
          if (j === undefined || !humans.length || !index.has(j)) continue;
          judgeValues.push(j);
          for (const h of humans) if (index.has(h)) cells.push(index.get(j)! * K + index.get(h)!);
        }
        // A run that gave no verdict on this dimension has nothing to compare.
        if (!judgeValues.length) continue;
        plans.push({
          entry: { run: { id: run.id, name: run.name }, dimension: d.key, method: "ratings", n: cells.length },
          cells,
          K,
          judgeValues,
        });
      }
    }
  }
  return (function* () {
    const judges: JudgeAgreement[] = [];
    const warnings: AgreementWarning[] = [];
    for (const p of plans) {
      const t = new Float64Array(p.K * p.K);
      for (const c of p.cells) t[c]++;
      const fns = [
        (x: Float64Array) => kappaOfTable(x, p.K, "none"),
        ...(p.entry.method === "table11" ? [(x: Float64Array) => fleissWithRule(x, p.K)] : []),
      ];
      // Too few items: the estimate stands alone, no interval (issue 44.4).
      const cis = tooFewItems(p.entry.n) ? fns.map(() => null) : yield* bootstrapCells(p.cells, p.K, fns, { ...o, level: 0.95 });
      const cohen = stat(fns[0](t), cis[0]);
      judges.push({ ...p.entry, cohen, ...(fns[1] ? { fleiss: stat(fns[1](t), cis[1]) } : {}) });
      const w = constantJudgeWarning(p.entry.dimension, p.entry.run.name, p.judgeValues);
      if (w) warnings.push(w);
      yield;
    }
    return { judges, warnings };
  })();
}
