/**
 * Task 1, requirement restatement: the assistant gets the topic's user query (+ its memory) and states the
 * full requirement as {"requirement"}. Scores: BLEU-1..4 against the reference requirement (Mem-PAL recipe)
 * and the G-Score judge, which sees query, reference requirement, implicit needs and the prediction.
 */
import { gScore, memPalBleu } from "@/lib/metrics";
import { JUDGES } from "@/lib/judges/registry";
import { JUDGE_TEMPERATURE } from "@/lib/judges/judge";
import { taskJudgeModel } from "./judge-model";
import { outputOf } from "./ports";
import { describePalItem, exportPalItem, presentPalItem, listQueryTopics, palItemOf } from "./palset-items";
import { mean, type TaskDef } from "./types";

/** 2: whitespace tokens kept, as Mem-PAL's metrics.py scores them (docs/metrics.md). */
export const BLEU_VERSION = 2;

export function bleuValues(references: string | string[], candidate: string): Record<string, number> {
  const [b1, b2, b3, b4] = memPalBleu(references, candidate);
  return { bleu1: b1 * 100, bleu2: b2 * 100, bleu3: b3 * 100, bleu4: b4 * 100 };
}

export const requirementTask: TaskDef = {
  name: "requirement",
  label: "Requirement restatement (Task 1)",
  datasetKind: "palset",
  items: listQueryTopics,
  describe: describePalItem,
  present: (db, datasetId, itemKey) => presentPalItem(db, datasetId, itemKey, "requirement"),
  exportItem: (db, datasetId, itemKey) => exportPalItem(db, datasetId, itemKey, "requirement"),
  estimate: () => ({ assistant: 1, "user-simulator": 0, judge: 1, promptTokens: 1800, completionTokens: 150 }),
  async run(ctx, item) {
    const it = palItemOf(ctx, item.itemKey);
    const assistant = await ctx.assistant(it.userKey, it.sessionSeq);
    const answer = await assistant.respond({ type: "query", query: it.userQuery });
    const prediction = outputOf(answer, "query").requirement;
    const judge = JUDGES.gscore;
    const verdict = await judge.verdict(
      {
        model: taskJudgeModel(ctx.model, "judge:gscore", ctx.config.models.judge?.temperature ?? JUDGE_TEMPERATURE),
        replicate: ctx.replicate,
        purpose: "requirement.gscore",
      },
      { userQuery: it.userQuery, requirement: it.requirement, implicitNeeds: it.implicitNeeds, prediction, lang: ctx.lang },
    );
    return {
      input: { userQuery: it.userQuery },
      output: { requirement: prediction },
      retrieved: answer.retrieved,
      scores: [
        { scorer: "bleu", version: BLEU_VERSION, values: bleuValues(it.requirement, prediction), detail: { references: [it.requirement] } },
        {
          scorer: "gscore",
          version: judge.version,
          values: { gscore: verdict.score },
          detail: { analysis: verdict.analysis },
        },
      ],
    };
  },
  metrics(items) {
    const out: Record<string, number | null> = {};
    for (const k of ["bleu1", "bleu2", "bleu3", "bleu4"]) out[k] = mean(items.map((s) => s.bleu?.[k]));
    const g = items.map((s) => s.gscore?.gscore).filter((x): x is number => typeof x === "number");
    out.gscore = gScore(g).value;
    return out;
  },
};
