/** A 1–3 rating judge for rating campaigns (session quality, uploaded outputs): one call per item and dimension. */
import { ModelCallError } from "@/lib/llm";
import type { CampaignJudgeDef, DimensionOutcome } from "./types";
import { detectLang } from "./content";
import { ratingJudgeMessages, ratingJudgeOutput } from "./rating-prompt";

export const ratingJudge: CampaignJudgeDef = {
  name: "rating",
  label: "1–3 rating judge (the campaign's guidelines, one call per dimension)",
  kinds: ["session-quality", "output-rating"],
  calls: (dims) => dims.length,
  async judge(ctx, item, dims) {
    const lang = detectLang(item.content);
    const out: Record<string, DimensionOutcome> = {};
    await Promise.all(
      dims.map(async (key) => {
        const dimension = ctx.dimensions.find((d) => d.key === key);
        if (!dimension) {
          out[key] = { error: `no dimension "${key}" in this campaign`, rawReply: null };
          return;
        }
        try {
          const r = await ctx.model.json({
            purpose: `campaign.judge.rating.${key}`,
            messages: ratingJudgeMessages({ guidelines: ctx.guidelines, dimension, content: item.content }, lang),
            schema: ratingJudgeOutput,
            language: lang,
          });
          out[key] = {
            value: String(r.value.score),
            judgments: [{ score: r.value.score, analysis: r.value.analysis }],
            analysis: r.value.analysis,
          };
        } catch (e) {
          if (!(e instanceof ModelCallError)) throw e;
          out[key] = { error: e.message, rawReply: e.rawReply };
        }
      }),
    );
    return out;
  },
};
