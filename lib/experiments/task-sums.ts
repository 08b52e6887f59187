/**
 * Each task's metrics as running sums: what one done job adds (`add`, from its latest score values) and
 * the metrics read back from a group's sums (`metrics`), equal to the task's own `metrics()` over the
 * same items (lib/experiments/aggregates.test.ts checks it against a full recomputation). Sums are
 * additive, so a job finishing adds its share and nothing is ever read twice. Keys: `s:` a sum, `n:` how
 * many items gave a number, `c:` a count.
 */
import { abScore, hfBleuFromStats, hicupidTotal, scheduleScore } from "@/lib/metrics";
import { cohenKappa } from "@/lib/agreement/cohen";
import { convValues, withTaskAverage } from "@/lib/tasks/convqa/scores";
import { DIMENSIONS } from "@/lib/judges/dialogue-pair";
import { pairOutcome } from "@/lib/metrics/faireval";
import { bleuStats, hitMetrics, judgeLabel, NO_HITS, judgeScorer, SLOTS, VERDICTS } from "@/lib/tasks/hicupid/scores";

export type Sums = Record<string, number>;
/** scorer → values: the latest version of each scorer of one job. */
export type JobValues = Record<string, Record<string, number | null>>;
export type TaskSums = { add(v: JobValues, out: Sums): void; metrics(s: Sums): Record<string, number | null> };

const inc = (out: Sums, key: string, by = 1) => (out[key] = (out[key] ?? 0) + by);
const isNum = (x: unknown): x is number => typeof x === "number" && Number.isFinite(x);

/**
 * Continuous values are summed as whole multiples of 1e-12, each split into two integers (millions and
 * the rest): integer sums are exact in any order, so the same items give the same figures however their
 * jobs finished (a float sum depends on the order), and both parts stay exact (below 2^53) for values up
 * to 100 over tens of millions of items.
 */
const Q = 1e12;
const SPLIT = 1e6;

/** Adds a value to a mean (as `mean()` counts it: finite numbers only). */
function addMean(out: Sums, key: string, x: unknown): void {
  if (!isNum(x)) return;
  const q = Math.round(x * Q);
  const hi = Math.floor(q / SPLIT);
  inc(out, `s:${key}`, hi);
  inc(out, `l:${key}`, q - hi * SPLIT);
  inc(out, `n:${key}`);
}
const meanOf = (s: Sums, key: string) => {
  const n = s[`n:${key}`];
  return n ? ((s[`s:${key}`] ?? 0) * SPLIT + (s[`l:${key}`] ?? 0)) / Q / n : null;
};

const BLEU = ["bleu1", "bleu2", "bleu3", "bleu4"];
const addBleu = (v: JobValues, out: Sums) => BLEU.forEach((k) => addMean(out, `bleu.${k}`, v.bleu?.[k]));
const bleuMetrics = (s: Sums, out: Record<string, number | null>) => BLEU.forEach((k) => (out[k] = meanOf(s, `bleu.${k}`)));

const requirement: TaskSums = {
  add(v, out) {
    addBleu(v, out);
    // G-Score: the mean of the items' 0..2 judgments, × 50 (lib/metrics/gscore.ts).
    if (typeof v.gscore?.gscore === "number") {
      inc(out, "s:gscore", v.gscore.gscore);
      inc(out, "n:gscore");
    }
  },
  metrics(s) {
    const out: Record<string, number | null> = {};
    bleuMetrics(s, out);
    out.gscore = s["n:gscore"] ? (s["s:gscore"] / s["n:gscore"]) * 50 : null;
    return out;
  },
};

const solution: TaskSums = {
  add(v, out) {
    addBleu(v, out);
    // Selection: an item without a valid selection counts 0 (lib/metrics/selection.ts, invalid "zero").
    inc(out, "c:items");
    if (typeof v.selection?.selection === "number") inc(out, "s:selection", v.selection.selection);
  },
  metrics(s) {
    const out: Record<string, number | null> = {};
    bleuMetrics(s, out);
    out.selection = s["c:items"] ? ((s["s:selection"] ?? 0) / s["c:items"]) * 50 : null;
    return out;
  },
};

const dialogue: TaskSums = { add() {}, metrics: () => ({}) };

const JUDGE = /^judge\d*$/;

const hicupid: TaskSums = {
  add(v, out) {
    inc(out, `c:judges:${Object.keys(v).filter((k) => JUDGE.test(k)).length}`);
    for (const sc of Object.keys(v).filter((k) => JUDGE.test(k))) {
      const j = v[sc];
      if (!j) continue;
      if (typeof j.verdict === "number") inc(out, `c:ab:${sc}:${j.type}:${j.verdict}:${j.slot}`);
      if (typeof j.yes === "number") inc(out, `c:yes:${sc}:${j.yes ? 1 : 0}`);
      // Read as the public scripts read replies (verdicts: public): whether the reply held a verdict.
      if (typeof j.parsed === "number") inc(out, `c:parsed:${sc}:${j.parsed ? 1 : 0}`);
    }
    if (v.bleu) {
      inc(out, "c:bleu");
      const st = bleuStats(v.bleu);
      addMean(out, "bleuItem", hfBleuFromStats([st]).bleu);
      inc(out, `c:bleuOrder:${st.matches.length}`);
      st.matches.forEach((m, i) => inc(out, `s:bleuCorpus.m${i}`, m));
      st.possible.forEach((p, i) => inc(out, `s:bleuCorpus.p${i}`, p));
      inc(out, "s:bleuCorpus.tl", st.translationLength);
      inc(out, "s:bleuCorpus.rl", st.referenceLength);
    }
    addMean(out, "rougeL", v.rouge?.rougeL);
    const r = v.retrieval;
    if (r && typeof r.type === "number") {
      inc(out, "c:hits");
      if (r.type === 1) {
        addMean(out, "hit1.persona", r.personaHit);
        addMean(out, "hit1.profile", r.profileHit);
      } else addMean(out, `hit${r.type}`, r.hit);
    }
    addMean(out, "recall", r?.recall);
    const [a, b] = [judgeLabel(v[judgeScorer(0)]), judgeLabel(v[judgeScorer(1)])];
    if (a !== null && b !== null) inc(out, `c:kappa:${a}:${b}`);
  },
  metrics(s) {
    const keys = Object.keys(s).filter((k) => s[k] > 0);
    const judges = Math.max(1, ...keys.filter((k) => k.startsWith("c:judges:")).map((k) => Number(k.slice(9))));
    const out: Record<string, number | null> = {};
    for (let j = 0; j < judges; j++) {
      const sc = judgeScorer(j);
      const suffix = j === 0 ? "" : `@${j + 1}`;
      const ab = (type: number) => {
        const items: Array<{ verdict: (typeof VERDICTS)[number]; modelSlot: (typeof SLOTS)[number] }> = [];
        for (const k of keys.filter((x) => x.startsWith(`c:ab:${sc}:${type}:`))) {
          const [verdict, slot] = k.split(":").slice(4).map(Number);
          for (let i = 0; i < s[k]; i++) items.push({ verdict: VERDICTS[verdict], modelSlot: SLOTS[slot] });
        }
        return abScore(items).score;
      };
      const persona = ab(0);
      const profile = ab(1);
      const yes = s[`c:yes:${sc}:1`] ?? 0;
      const no = s[`c:yes:${sc}:0`] ?? 0;
      const schedule = scheduleScore([...Array<"YES">(yes).fill("YES"), ...Array<"NO">(no).fill("NO")]).score;
      out[`persona${suffix}`] = persona;
      out[`schedule${suffix}`] = schedule;
      out[`profile${suffix}`] = profile;
      out[`total${suffix}`] = hicupidTotal({ persona, schedule, profile });
      const read = (s[`c:parsed:${sc}:1`] ?? 0) + (s[`c:parsed:${sc}:0`] ?? 0);
      if (read) out[`unparsed${suffix}`] = s[`c:parsed:${sc}:0`] ?? 0;
    }
    if (s["c:bleu"]) {
      out.bleu = (meanOf(s, "bleuItem") ?? 0) * 100;
      const order = Math.max(...keys.filter((k) => k.startsWith("c:bleuOrder:")).map((k) => Number(k.slice(12))));
      const at = (k: string) => s[`s:bleuCorpus.${k}`] ?? 0;
      out.bleuCorpus =
        hfBleuFromStats([
          {
            matches: Array.from({ length: order }, (_, i) => at(`m${i}`)),
            possible: Array.from({ length: order }, (_, i) => at(`p${i}`)),
            translationLength: at("tl"),
            referenceLength: at("rl"),
          },
        ]).bleu * 100;
    } else out.bleu = out.bleuCorpus = null;
    const rouge = meanOf(s, "rougeL");
    out.rougeL = rouge === null ? null : rouge * 100;
    Object.assign(
      out,
      s["c:hits"]
        ? hitMetrics({
            persona: meanOf(s, "hit0"),
            schedule: meanOf(s, "hit2"),
            multiPersona: meanOf(s, "hit1.persona"),
            multiProfile: meanOf(s, "hit1.profile"),
          })
        : NO_HITS,
    );
    out.recall = meanOf(s, "recall");
    if (judges > 1) {
      const pairs: Array<[string, string]> = [];
      for (const k of keys.filter((x) => x.startsWith("c:kappa:"))) {
        const [a, b] = k.split(":").slice(2);
        for (let i = 0; i < s[k]; i++) pairs.push([a, b]);
      }
      out.kappa = pairs.length ? cohenKappa(pairs, { categories: ["win", "tie", "lose", "YES", "NO"] }).value : null;
    }
    return out;
  },
};

/** LoCoMo and LongMemEval: means of the named values (lib/tasks/convqa/scores.ts). */
const convqa: TaskSums = {
  add(v, out) {
    for (const [k, x] of Object.entries(convValues(v))) addMean(out, `cv.${k}`, x);
  },
  metrics(s) {
    const keys = Object.keys(s)
      .filter((k) => k.startsWith("n:cv."))
      .map((k) => k.slice(5))
      .sort();
    return withTaskAverage(Object.fromEntries(keys.map((k) => [k, meanOf(s, `cv.${k}`)])));
  },
};

export const TASK_SUMS: Record<string, TaskSums> = { requirement, solution, dialogue, hicupid, locomo: convqa, longmemeval: convqa };

/**
 * A pairwise dialogue judgment (phase 1): its outcome per dimension as judged (+1/0/-1), and, to re-derive
 * W/T/L at a tie margin applied later, the difference of the two mean scores (or the outcome when the
 * means are missing). The `c:means:` keys are read only when a margin is applied (MARGIN_KEYS).
 */
export function addPair(v: JobValues, out: Sums): void {
  const f = v.faireval;
  for (const dim of DIMENSIONS) {
    const x = f?.[dim];
    if (x === 1 || x === 0 || x === -1) inc(out, `c:wtl:${dim}:${x}`);
    const a = f?.[`${dim}MeanA`];
    const b = f?.[`${dim}MeanB`];
    // The outcome at a margin depends only on the difference of the means (pairOutcome): one count per difference.
    if (typeof a === "number" && typeof b === "number") inc(out, `c:means:${dim}:${a - b}`);
    else if (x === 1 || x === 0 || x === -1) inc(out, `c:asrun:${dim}:${x}`);
  }
}

/** The keys only a tie margin applied after the run reads. */
export const MARGIN_KEYS = "c:means:";

/** Win/tie/lose counts of one dimension from a pair group's sums, as judged or at an applied tie margin. */
export function pairCounts(s: Sums, dim: string, margin: number | null): { win: number; tie: number; lose: number } {
  const c = { win: 0, tie: 0, lose: 0 };
  const put = (x: number, n: number) => {
    if (x === 1) c.win += n;
    else if (x === 0) c.tie += n;
    else if (x === -1) c.lose += n;
  };
  for (const [k, n] of Object.entries(s)) {
    if (!n) continue;
    const p = k.split(":");
    if (p[2] !== dim) continue;
    if (margin === null) {
      if (p[1] === "wtl") put(Number(p[3]), n);
    } else if (p[1] === "asrun") put(Number(p[3]), n);
    else if (p[1] === "means") put({ Win: 1, Tie: 0, Lose: -1 }[pairOutcome(Number(p[3]), 0, margin)], n);
  }
  return c;
}

/** The one number the Items table sorts by: the metric each task leads with; a pair: the sum of its dimensions' outcomes. */
const PRIMARY: Array<[scorer: string, metric: string]> = [
  ["gscore", "gscore"],
  ["selection", "selection"],
  ["rouge", "rougeL"],
  // LoCoMo's QA score (F1, or 0/1 for adversarial questions) and LongMemEval's judge verdict (1 correct, 0 not).
  ["locomo", "f1"],
  ["judge", "correct"],
];

export function leadingScore(v: JobValues): number | null {
  if (v.faireval) {
    const outcomes = Object.entries(v.faireval).filter(([k, x]) => !/Mean[AB]$/.test(k) && typeof x === "number");
    return outcomes.length ? outcomes.reduce((s, [, x]) => s + (x as number), 0) : null;
  }
  for (const [scorer, metric] of PRIMARY) {
    const x = v[scorer]?.[metric];
    if (typeof x === "number") return x;
  }
  return null;
}

/** What the leading score is, by task (the Items table's label): an item's own points, not the tables' × 50 scale. */
export function leadingScoreLabel(task: string, pair: boolean): string | null {
  if (pair) return "W/T/L sum";
  return (
    (
      {
        requirement: "G-Score points (0-2)",
        solution: "S-Score points (−2..2)",
        hicupid: "ROUGE-L",
        locomo: "LoCoMo QA score (F1; 0/1 for unanswerable)",
        longmemeval: "judge: 1 correct, 0 not",
      } as Record<string, string>
    )[task] ?? null
  );
}
