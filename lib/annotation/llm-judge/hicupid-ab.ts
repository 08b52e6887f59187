/**
 * HiCUPID's A/B/Tie judge on a campaign's items, with the experiments' prompt and final-line parser. The
 * model's answer (canonical slot A) takes a seeded random slot per item, recorded with the verdict; the
 * judge's one verdict weighs personalization and logical validity together, so it stands for every
 * dimension of the campaign.
 */
import { abJudgeMessages, parseAbVerdict } from "@/lib/judges/hicupid";
import { ModelCallError } from "@/lib/llm";
import { mulberry32 } from "@/lib/random";
import { hashOf } from "@/lib/llm/hash";
import type { CampaignJudgeDef, DimensionOutcome } from "./types";
import { hicupidJudgeInput } from "./content";

const text = (v: unknown) => (typeof v === "string" ? v : JSON.stringify(v));

/** Where the model's answer is shown to the judge: seeded by the run's seed and the item, so a re-run shows the same. */
export function judgeModelSlot(seed: number, externalId: string): "A" | "B" {
  const h = parseInt(hashOf({ seed, item: externalId }).slice(0, 8), 16);
  return mulberry32(h)() < 0.5 ? "A" : "B";
}

export const hicupidAbJudge: CampaignJudgeDef = {
  name: "hicupid-ab",
  label: "HiCUPID A/B/Tie judge (one verdict per item, answer slot randomised)",
  kinds: ["hicupid-ab"],
  calls: (dims) => (dims.length ? 1 : 0),
  async judge(ctx, item, dims) {
    const { type, metadata } = hicupidJudgeInput(item.content);
    const slot = judgeModelSlot(ctx.settings.seed, item.externalId);
    const model = text(item.outputs?.A);
    const reference = text(item.outputs?.B);
    const [answerA, answerB] = slot === "A" ? [model, reference] : [reference, model];
    let result: DimensionOutcome;
    try {
      const r = await ctx.model.text({
        purpose: "campaign.judge.hicupid",
        messages: abJudgeMessages({ type, metadata, question: text(item.content.question), answerA, answerB }),
        parse: parseAbVerdict,
      });
      // The judge's A/B are display slots; canonical Win means the model's answer won.
      const value = r.value === "Tie" ? "Tie" : r.value === slot ? "Win" : "Lose";
      result = { value, judgments: [{ modelSlot: slot, verdict: r.value, reply: r.raw }], analysis: r.raw };
    } catch (e) {
      if (!(e instanceof ModelCallError)) throw e;
      result = { error: e.message, rawReply: e.rawReply };
    }
    return Object.fromEntries(dims.map((d) => [d, result]));
  },
};
