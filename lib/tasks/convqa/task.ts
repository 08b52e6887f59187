/**
 * The conversational-memory QA task of LoCoMo and LongMemEval (issue 42), one folder, two registered
 * tasks (`locomo`, `longmemeval`: each runs on its own data-set kind). Each QA item is asked of a method
 * whose memory was built from every session before the question: LoCoMo's whole conversation,
 * LongMemEval's haystack in haystack_dates order, asked at question_date. Every built-in method answers
 * through its memory (AssistantPort), with the shared memory-question prompt (lib/assistants/core/task-prompts.ts).
 *
 * LoCoMo as its public evaluation asks (task_eval/evaluate_gpts.py): category 2 questions ask for a date
 * worked out from the conversations' dates; category 5 questions offer two options, the adversarial answer
 * and "Not mentioned in the conversation", in a seeded order, and a reply naming a letter is read as that
 * option. Scores: lib/metrics/locomo.ts and the LongMemEval judge (lib/judges/longmemeval.ts).
 */
import { hashSeed, mulberry32 } from "@/lib/random";
import { LOCOMO_F1_VERSION, locomoEvidenceRecall, locomoQaScore } from "@/lib/metrics/locomo";
import { JUDGES } from "@/lib/judges/registry";
import { JUDGE_TEMPERATURE } from "@/lib/judges/judge";
import { LME_TYPES } from "@/lib/datasets/longmemeval/read";
import { outputOf } from "../ports";
import { taskJudgeModel } from "../judge-model";
import type { JobContext, ScoreRow, TaskDef, TaskItem } from "../types";
import { isAbstention, listConvItems, loadConvItem, referenceText, type ConvItem } from "./items";
import { diaIdsOf, lmeRetrieval, retrievedUnits } from "./retrieval";
import { convMetrics, CONVQA_SCORE_VERSION, LME_RETRIEVAL_VERSION } from "./scores";

export const NOT_MENTIONED = "Not mentioned in the conversation";

/** Category 5's two options in a seeded order (the public code draws the order at random per question). */
export function cat5Options(it: ConvItem, seed: number, replicate: number): { a: string; b: string } {
  const notFirst = mulberry32(hashSeed(`${seed}|${replicate}|${it.itemKey}`))() < 0.5;
  const adv = it.adversarialAnswer ?? it.answer;
  return notFirst ? { a: NOT_MENTIONED, b: adv } : { a: adv, b: NOT_MENTIONED };
}

/** A reply of one letter ("a", "(b)") is that option's text, as evaluate_gpts.py get_cat_5_answer reads it; else the reply. */
export function readCat5(reply: string, options: { a: string; b: string }): string {
  const r = reply.trim().toLowerCase();
  if (r.length === 1) return r.includes("a") ? options.a : options.b;
  if (r.length === 3) return r.includes("(a)") ? options.a : options.b;
  return reply.trim();
}

function locomoQuestion(it: ConvItem, seed: number, replicate: number): { question: string; options?: { a: string; b: string } } {
  if (it.category === 2)
    return { question: `${it.question} Answer with a date (approximate if need be), worked out from the dates of the conversations.` };
  if (it.category === 5) {
    const options = cat5Options(it, seed, replicate);
    return { question: `${it.question} Choose one: (a) ${options.a} (b) ${options.b}.`, options };
  }
  return { question: it.question };
}

async function answerOf(ctx: JobContext, it: ConvItem, benchmark: "locomo" | "longmemeval", question: string, askedAt: string | null) {
  const assistant = await ctx.assistant(it.threadKey, it.sessions);
  const maxTokens = ctx.config.answerTokens;
  const r = await assistant.respond({
    type: "question",
    question,
    style: "memory",
    askedAt,
    benchmark,
    ...(maxTokens ? { maxTokens } : {}),
  });
  return { answer: outputOf(r, "question").answer, retrieved: r.retrieved };
}

const describe = (db: Parameters<NonNullable<TaskDef["describe"]>>[0], datasetId: number, itemKey: string) => {
  const it = loadConvItem(db, datasetId, itemKey);
  return [
    { label: "Question", text: it.question },
    { label: "Reference", text: referenceText(it) },
    ...(it.category !== null ? [{ label: "Category", text: String(it.category) }] : []),
    ...(it.questionType ? [{ label: "Question type", text: it.questionType + (isAbstention(it.itemKey) ? " (abstention)" : "") }] : []),
    ...(it.questionDate ? [{ label: "Asked on", text: it.questionDate }] : []),
    { label: "Evidence", text: it.evidence.join(", ") || "(none)" },
  ];
};

/** The item as readable cards (question, category or type, evidence) and the reference beside the answer. */
const present = (db: Parameters<NonNullable<TaskDef["present"]>>[0], datasetId: number, itemKey: string) => {
  const fields = describe(db, datasetId, itemKey).filter((f) => f.label !== "Reference");
  const it = loadConvItem(db, datasetId, itemKey);
  return {
    cards: [{ title: "Question (the reference and evidence are never shown to the method)", fields }],
    reference: [{ label: "Reference", text: referenceText(it) }],
  };
};

const exportItem = (db: Parameters<NonNullable<TaskDef["exportItem"]>>[0], datasetId: number, itemKey: string) => {
  const it = loadConvItem(db, datasetId, itemKey);
  return {
    question: it.question,
    reference: referenceText(it),
    ...(it.category !== null ? { category: it.category } : {}),
    ...(it.questionType ? { question_type: it.questionType } : {}),
  };
};

const estimate = (judge: number) => () => ({ assistant: 1, "user-simulator": 0, judge, promptTokens: 4000, completionTokens: 40 });
const items = (db: Parameters<TaskDef["items"]>[0], datasetId: number, users: "all" | string[]): TaskItem[] =>
  listConvItems(db, datasetId, users);

export const locomoTask: TaskDef = {
  name: "locomo",
  label: "LoCoMo QA (F1 by category, evidence recall)",
  datasetKind: "locomo",
  items,
  describe,
  present,
  exportItem,
  estimate: estimate(0),
  async run(ctx, item) {
    const it = loadConvItem(ctx.db, ctx.datasetId, item.itemKey);
    if (it.category === null) throw new Error(`item ${item.itemKey}: no category`);
    const q = locomoQuestion(it, ctx.config.seed, ctx.replicate);
    const a = await answerOf(ctx, it, "locomo", q.question, null);
    const output = q.options ? readCat5(a.answer, q.options) : a.answer;
    const scores: ScoreRow[] = [
      {
        scorer: "locomo",
        version: LOCOMO_F1_VERSION,
        values: { f1: locomoQaScore(it.category, output, it.answer), category: it.category },
      },
    ];
    const got = retrievedUnits(ctx.db, ctx.datasetId, it.threadKey, a.retrieved);
    if (got) {
      const context = diaIdsOf(got.units);
      scores.push({
        scorer: "evidence",
        version: CONVQA_SCORE_VERSION,
        values: { recall: locomoEvidenceRecall(it.evidence, context) },
        detail: { evidence: it.evidence, context },
      });
    }
    return {
      input: { question: q.question, ...(q.options ? { options: q.options } : {}) },
      output: { answer: output, ...(output !== a.answer ? { reply: a.answer } : {}) },
      retrieved: a.retrieved,
      scores,
    };
  },
  metrics: (rows) => convMetrics(rows),
};

export const longmemevalTask: TaskDef = {
  name: "longmemeval",
  label: "LongMemEval QA (judge accuracy by type, retrieval recall/NDCG)",
  datasetKind: "longmemeval",
  items,
  describe,
  present,
  exportItem,
  estimate: estimate(1),
  async run(ctx, item) {
    const it = loadConvItem(ctx.db, ctx.datasetId, item.itemKey);
    const abstention = isAbstention(it.itemKey);
    const a = await answerOf(ctx, it, "longmemeval", it.question, it.questionDate);
    if (!a.answer) throw new Error(`item ${item.itemKey}: the answer is empty`);
    const judge = JUDGES.longmemeval;
    const v = await judge.verdict(
      {
        model: taskJudgeModel(ctx.model, "judge", ctx.config.models.judge?.temperature ?? JUDGE_TEMPERATURE),
        replicate: ctx.replicate,
        purpose: "longmemeval.judge",
      },
      { questionType: it.questionType ?? "", abstention, question: it.question, reference: it.answer, response: a.answer },
    );
    const type = LME_TYPES.indexOf(it.questionType as (typeof LME_TYPES)[number]);
    const scores: ScoreRow[] = [
      {
        scorer: "judge",
        version: judge.version,
        values: { correct: v.correct ? 1 : 0, type, abstention: abstention ? 1 : 0 },
        detail: { reply: v.reply },
      },
    ];
    // Retrieval is scored without the abstention questions (their evidence does not exist) and those without a user-side
    // has_answer turn, as the public code reports it (lmeRetrieval).
    const got = abstention ? null : retrievedUnits(ctx.db, ctx.datasetId, it.threadKey, a.retrieved);
    const r = got && lmeRetrieval(got, it.evidence);
    if (r) scores.push({ scorer: "retrieval", version: LME_RETRIEVAL_VERSION, values: r });
    return { input: { question: it.question, askedAt: it.questionDate }, output: { answer: a.answer }, retrieved: a.retrieved, scores };
  },
  metrics: (rows) => convMetrics(rows),
};
