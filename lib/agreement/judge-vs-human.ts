/**
 * Mem-PAL's LLM-judge vs human protocol (docs/metrics.md; Mem-PAL "Human Evaluation for Multi-turn Dialogue
 * Interaction"): aggregate the humans per item by majority vote (with a recorded tie rule), drop the
 * items that both the LLM and the humans call a tie, then Fleiss' kappa over the two "raters" (LLM,
 * human majority), as the paper cites, with Cohen's kappa beside it. The stricter variant drops every
 * item either side calls a tie. The plain kappas over all items are reported too.
 */
import { CONSTANT_RATINGS, cohenKappa } from "./cohen";
import { fleissKappa } from "./fleiss";
import { majorityVote, type TieRule } from "./majority";
import { percentAgreement } from "./percent";
import { categoriesOf, type Label, type Stat } from "./types";

export interface JudgeHumanItem {
  id: string | number;
  /** The LLM judge's label (e.g. Win / Tie / Lose after FairEval aggregation). */
  llm: Label;
  /** Each human's label; missing ones null. */
  humans: ReadonlyArray<Label | null | undefined>;
  /** An adjudicated human label, used by the "adjudicate" tie rule. */
  adjudicated?: Label | null;
}

export interface JudgeHumanOptions {
  /** The tie label on both sides; default "Tie". */
  tieLabel?: Label;
  /** How split human votes are resolved; default "tie" (two humans who disagree → a tie). */
  humanTieRule?: TieRule;
  /** "both" (the paper): drop items both call a tie; "either" (stricter): drop items either calls a tie. */
  variant?: "both" | "either";
  /** Category order for the table; default the labels in order of appearance. */
  categories?: readonly Label[];
}

export interface KappaPair {
  n: number;
  fleissKappa: Stat;
  cohenKappa: Stat;
  percentAgreement: number | null;
}

export interface JudgeHumanResult extends KappaPair {
  variant: "both" | "either";
  humanTieRule: TieRule;
  tieLabel: Label;
  /** Items dropped as ties under the variant. */
  droppedTies: number;
  /** Items whose human label stayed unresolved (no ratings, or a tie awaiting adjudication). */
  unresolved: Array<string | number>;
  /** Without dropping ties. */
  plain: KappaPair;
  /** LLM (rows) × human majority (columns) over every resolved item: Mem-PAL Table 11's comparison. */
  table: { categories: Label[]; counts: number[][] };
  llmCounts: Record<string, number>;
  humanCounts: Record<string, number>;
  humanLabels: Array<{ id: string | number; label: Label | null; rule: string; tied: boolean }>;
  /** Kept items on which LLM and humans disagree. */
  disagreements: Array<{ id: string | number; llm: Label; human: Label }>;
}

function kappas(pairs: Array<[Label, Label]>, categories: readonly Label[]): KappaPair {
  const c = cohenKappa(pairs, { categories });
  // Fleiss' kappa does not know which "rater" is the judge; a side with one value throughout makes it as
  // meaningless as Cohen's (docs/metrics.md, "Constant ratings"), so both say so.
  const f: Stat = c.reason?.startsWith(CONSTANT_RATINGS) ? { value: null, reason: c.reason } : fleissKappa(pairs, categories);
  const p = percentAgreement(pairs);
  return {
    n: pairs.length,
    fleissKappa: { value: f.value, ...(f.reason ? { reason: f.reason } : {}) },
    cohenKappa: { value: c.value, ...(c.reason ? { reason: c.reason } : {}) },
    percentAgreement: p.value,
  };
}

export function judgeVsHuman(items: readonly JudgeHumanItem[], opts: JudgeHumanOptions = {}): JudgeHumanResult {
  const tieLabel = opts.tieLabel ?? "Tie";
  const humanTieRule = opts.humanTieRule ?? "tie";
  const variant = opts.variant ?? "both";
  const isTie = (l: Label) => String(l) === String(tieLabel);

  const humanLabels: JudgeHumanResult["humanLabels"] = [];
  const unresolved: Array<string | number> = [];
  const resolved: Array<{ id: string | number; llm: Label; human: Label }> = [];
  for (const it of items) {
    const m = majorityVote(it.humans, { tieRule: humanTieRule, tieLabel, adjudicated: it.adjudicated });
    humanLabels.push({ id: it.id, label: m.label, rule: m.rule, tied: m.tied });
    if (m.label === null) unresolved.push(it.id);
    else resolved.push({ id: it.id, llm: it.llm, human: m.label });
  }

  const categories = opts.categories ?? categoriesOf([tieLabel, ...resolved.flatMap((r) => [r.llm, r.human])]);
  const allPairs = resolved.map((r) => [r.llm, r.human] as [Label, Label]);
  const kept = resolved.filter((r) => (variant === "both" ? !(isTie(r.llm) && isTie(r.human)) : !(isTie(r.llm) || isTie(r.human))));
  const keptPairs = kept.map((r) => [r.llm, r.human] as [Label, Label]);

  const index = new Map(categories.map((c, i) => [String(c), i]));
  const counts = categories.map(() => new Array<number>(categories.length).fill(0));
  const llmCounts: Record<string, number> = {};
  const humanCounts: Record<string, number> = {};
  for (const r of resolved) {
    const i = index.get(String(r.llm));
    const j = index.get(String(r.human));
    if (i === undefined || j === undefined) throw new RangeError(`item ${r.id}: label not among the categories`);
    counts[i][j]++;
    llmCounts[String(r.llm)] = (llmCounts[String(r.llm)] ?? 0) + 1;
    humanCounts[String(r.human)] = (humanCounts[String(r.human)] ?? 0) + 1;
  }

  return {
    variant,
    humanTieRule,
    tieLabel,
    ...kappas(keptPairs, categories),
    droppedTies: resolved.length - kept.length,
    unresolved,
    plain: kappas(allPairs, categories),
    table: { categories: [...categories], counts },
    llmCounts,
    humanCounts,
    humanLabels,
    disagreements: kept.filter((r) => String(r.llm) !== String(r.human)),
  };
}
