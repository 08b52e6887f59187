/**
 * Mem-PAL's pairwise dialogue judge on a campaign's items, with the same prompts, schema and FairEval
 * aggregation as the experiments' dialogue task: per dimension six separately sampled calls (distinct
 * replicate indices), three with side A shown first and three with B first, scores 1–10 mapped back to
 * their side and averaged; the higher average wins, equal averages (or within the margin) tie.
 */
import { fairEval, type PairJudgment } from "@/lib/metrics";
import { dialogueJudgeMessages, dialogueJudgeOutput, DIMENSIONS, type Dimension } from "@/lib/judges/dialogue-pair";
import { ModelCallError } from "@/lib/llm";
import type { CampaignJudgeDef, DimensionOutcome } from "./types";
import { detectLang, dialogueJudgeInput, utterances } from "./content";

export const JUDGMENTS_PER_PAIR = 6;

export const pairwiseDialogueJudge: CampaignJudgeDef = {
  name: "dialogue-pair",
  label: "Pairwise dialogue judge (FairEval: 6 calls per dimension, both orders)",
  kinds: ["pairwise-dialogue"],
  calls: (dims) => dims.filter((d) => (DIMENSIONS as readonly string[]).includes(d)).length * JUDGMENTS_PER_PAIR,
  async judge(ctx, item, dims) {
    const da = utterances(item.outputs?.A);
    const db = utterances(item.outputs?.B);
    const info = dialogueJudgeInput(item.content);
    const lang = detectLang([info, da, db]);
    const out: Record<string, DimensionOutcome> = {};
    await Promise.all(
      dims.map(async (dim) => {
        if (!(DIMENSIONS as readonly string[]).includes(dim)) {
          out[dim] = {
            error: `the pairwise dialogue judge has no "${dim}" dimension (it judges ${DIMENSIONS.join(", ")})`,
            rawReply: null,
          };
          return;
        }
        try {
          const judgments = await Promise.all(
            Array.from({ length: JUDGMENTS_PER_PAIR }, async (_, k) => {
              const order = k < JUDGMENTS_PER_PAIR / 2 ? ("AB" as const) : ("BA" as const);
              const [first, second] = order === "AB" ? [da, db] : [db, da];
              const r = await ctx.model.json({
                purpose: `campaign.judge.dialogue.${dim}`,
                messages: dialogueJudgeMessages(dim as Dimension, info, { first, second }, lang),
                schema: dialogueJudgeOutput,
                replicate: k,
              });
              const j: PairJudgment = { order, scoreFirst: r.value.scores["assistant-1"], scoreSecond: r.value.scores["assistant-2"] };
              // Stored for side A / side B, as imported judgments are, with the shown order beside them.
              const [scoreA, scoreB] = order === "AB" ? [j.scoreFirst, j.scoreSecond] : [j.scoreSecond, j.scoreFirst];
              return { ...j, scoreA, scoreB, replicate: k, analysis: r.value.analysis };
            }),
          );
          const res = fairEval(judgments, { margin: ctx.settings.tieMargin })!;
          out[dim] = {
            value: res.outcome,
            judgments,
            analysis: `mean A ${res.meanA.toFixed(2)} vs mean B ${res.meanB.toFixed(2)} over ${res.n} judgments (${res.orders.AB} AB, ${res.orders.BA} BA)`,
          };
        } catch (e) {
          if (!(e instanceof ModelCallError)) throw e;
          out[dim] = { error: e.message, rawReply: e.rawReply };
        }
      }),
    );
    return out;
  },
};
