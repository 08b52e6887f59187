/**
 * The G-Score judge of Mem-PAL's requirement restatement: it sees the user's initial query, the reference
 * (requirement + the two implicit needs) and the prediction, and scores 0..2 in halves, one point per
 * implicit need the prediction captures. Output keys as in the paper: {"analysis", "score"}. One call per
 * verdict; the verdict is the score (0, 0.5, 1, 1.5 or 2) with the judge's analysis.
 */
import { z } from "zod";
import { GSCORE_VALUES } from "@/lib/metrics";
import type { ChatMessage, Lang } from "@/lib/llm/types";
import { block, json } from "./prompt-text";
import { oneCallJudge, type Judge } from "./judge";

export const GSCORE_JUDGE_VERSION = 1;

export const gscoreJudgeOutput = z.object({
  analysis: z.string(),
  // The allowed values as a literal (sent as an enum, so constrained decoding can only write one of them).
  score: z.literal(GSCORE_VALUES, { error: `score must be one of ${GSCORE_VALUES.join(", ")}` }),
});
export type GScoreJudgeOutput = z.infer<typeof gscoreJudgeOutput>;

export type GScoreJudgeInput = { userQuery: string; requirement: string; implicitNeeds: string[]; prediction: string };

export function gscoreJudgeMessages(input: GScoreJudgeInput, lang: Lang): ChatMessage[] {
  const reference = json({ requirement: input.requirement, implicit_needs: input.implicitNeeds });
  if (lang === "zh") {
    return [
      {
        role: "user",
        content: [
          "你是一名评分员。一个日常助手需要结合用户的个人信息，推断用户提问背后没有说出口的需求，并用一句话描述用户的真实需求。",
          "下面给出用户最初的提问（仅作背景）、参考答案（完整需求 requirement 与两条隐含需求 implicit_needs）以及待评估模型的预测。请把预测与参考对比并打分。",
          `# 用户最初的提问\n${block(input.userQuery)}`,
          `# 参考：用户的真实需求\n${block(reference)}`,
          `# 模型预测\n${block(input.prediction)}`,
          "# 评分规则",
          "1. 重点看预测是否覆盖了两条隐含需求；requirement 只是两者的概括，可作参考。两条的顺序无关。",
          "2. 每覆盖一条隐含需求得 1 分，部分覆盖得 0.5 分，因此总分只能是 0、0.5、1、1.5 或 2。",
          "3. 只要预测体现了某条隐含需求的核心内容即可算覆盖，不必字面一致；在同一方面给出更具体的信息也算覆盖。",
          '4. 只输出如下 JSON，不要输出其他内容：{"analysis": "你的分析", "score": 分数}',
        ].join("\n\n"),
      },
    ];
  }
  return [
    {
      role: "user",
      content: [
        "You grade an assistant's guess at what a user really needs. The assistant had to use what it knows about the user to infer the needs the user did not state, and describe the actual need in one sentence.",
        "Below are the user's first question (background only), the reference (the full requirement and the two implicit needs) and the prediction to grade. Compare the prediction with the reference and give a score.",
        `# The user's first question\n${block(input.userQuery)}`,
        `# Reference: what the user actually needs\n${block(reference)}`,
        `# Prediction\n${block(input.prediction)}`,
        "# How to score",
        "1. Judge how well the prediction covers the two implicit needs; the requirement only summarises them and may guide you. Their order does not matter.",
        "2. One point per implicit need the prediction covers, half a point for a partial match: the score is 0, 0.5, 1, 1.5 or 2.",
        "3. A need counts as covered when its core is present, whatever the wording; more detail on the same aspect still counts.",
        '4. Answer with this JSON only, nothing else: {"analysis": "your reasoning", "score": <score>}',
      ].join("\n\n"),
    },
  ];
}

export const gscoreJudge: Judge<GScoreJudgeInput & { lang: Lang }, GScoreJudgeOutput> = oneCallJudge(
  { name: "gscore", label: "G-Score judge (requirement restatement: implicit needs covered, 0–2)", version: GSCORE_JUDGE_VERSION },
  { messages: (input) => gscoreJudgeMessages(input, input.lang), schema: gscoreJudgeOutput },
  (reply) => reply.value,
);
