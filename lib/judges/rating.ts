/**
 * The 1–3 rating judge's prompt, built from the campaign's own guidelines: the judge reads what a human
 * annotator reads (the guidelines, the dimension's question and scale, the item's visible content) and
 * nothing else. Output keys: {"analysis", "score"}. One call per item and dimension; the reply must be in
 * the item's language.
 */
import { z } from "zod";
import type { ChatMessage, Lang } from "@/lib/llm/types";
import { block, json } from "./prompt-text";
import { oneCallJudge, type Judge } from "./judge";

export const RATING_JUDGE_VERSION = 1;

export const ratingJudgeOutput = z.object({
  analysis: z.string(),
  score: z.union([z.literal(1), z.literal(2), z.literal(3)]),
});
export type RatingJudgeOutput = z.infer<typeof ratingJudgeOutput>;

/** The dimension as the annotators see it (a campaign's DimensionSpec). */
export type RatingDimension = { key: string; title: string; question: string; categories: Array<{ value: string; label: string }> };
export type RatingJudgeInput = { guidelines: string; dimension: RatingDimension; content: Record<string, unknown> };

export function ratingJudgeMessages(input: RatingJudgeInput, lang: Lang): ChatMessage[] {
  const d = input.dimension;
  const scale = d.categories.map((c) => `- ${c.value}: ${c.label}`).join("\n");
  const parts =
    lang === "zh"
      ? [
          "你是一名标注员，和人工标注员做同一份标注任务。请先阅读任务说明，再按其中一个维度给下面的条目打 1 到 3 的整数分。",
          `# 任务说明\n${block(input.guidelines)}`,
          `# 本次评分的维度：${d.title}\n${d.question}\n评分标准：\n${scale}`,
          `# 待评条目\n${block(json(input.content))}`,
          "# 输出要求",
          "先写出你的分析（引用条目中的具体内容），再给出分数。只评这一个维度。",
          '只输出如下 JSON：{"analysis": "你的分析", "score": 1 或 2 或 3}',
        ]
      : [
          "You are an annotator doing the same labelling task as the human annotators. Read the task's guidelines, then rate the item below on one dimension with an integer from 1 to 3.",
          `# Guidelines\n${block(input.guidelines)}`,
          `# The dimension to rate: ${d.title}\n${d.question}\nScale:\n${scale}`,
          `# The item\n${block(json(input.content))}`,
          "# Output",
          "Write your analysis first (point to what in the item supports it), then the score. Rate this one dimension only.",
          'Answer with this JSON only: {"analysis": "your reasoning", "score": 1, 2 or 3}',
        ];
  return [{ role: "user", content: parts.join("\n\n") }];
}

export const ratingJudge: Judge<RatingJudgeInput & { lang: Lang }, RatingJudgeOutput> = oneCallJudge(
  { name: "rating", label: "1–3 rating judge (the campaign's guidelines, one call per dimension)", version: RATING_JUDGE_VERSION },
  {
    messages: (input) => ratingJudgeMessages(input, input.lang),
    purposePart: (input) => input.dimension.key,
    language: (input) => input.lang,
    schema: ratingJudgeOutput,
  },
  (reply) => reply.value,
);
