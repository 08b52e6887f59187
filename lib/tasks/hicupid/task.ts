/**
 * The `hicupid` task (HiCUPID §4): each QA item of the chosen splits is answered by a method — an
 * inference setting (whole history, gold dialogues, utterance- or dialogue-level RAG, 0/1/3/5 shots,
 * instruction in the user turn or the system prompt) or a memory method answering after the user's whole
 * dialogue history (its dialogue-only form) — and judged: persona and profile items A/B/Tie against the
 * personalized answer with the model's slot randomised per item and recorded, schedule items YES/NO, the
 * verdict parsed from the judge's final line. One or two judges side by side (Cohen's kappa between them).
 * Scores per type, Total, BLEU and ROUGE-L against the personalized answer, retrieval recall for RAG.
 * The QA metadata, answers and relevant ids never reach the assistant.
 */
import { hfBleuStats, rougeL } from "@/lib/metrics";
import { methodKey } from "@/lib/experiments/config";
import { mulberry32 } from "@/lib/random";
import { abJudgeMessages, HICUPID_JUDGE_VERSION, parseAbVerdict, parseYesNo, scheduleJudgeMessages } from "@/lib/judges/hicupid";
import { datasetById, loadSessions } from "@/lib/assistants/sessions";
import { outputOf } from "../ports";
import type { ScoreRow, TaskDef } from "../types";
import { templateSeed } from "../dialogue/template";
import { describeHcItem, presentHcItem, fewShotExamples, listHcItems, loadHcItem } from "./items";
import { historyContext } from "./context";
import { hicupidAnswerMessages } from "./prompts";
import { CONTEXT_SETTINGS, isContextSetting, type ContextOptions } from "./settings";
import { bleuValues, hicupidMetrics, judgeScorer, VERDICT_CODE } from "./scores";

export const HICUPID_SCORE_VERSION = 1;
const TYPE_CODE = { persona: 0, profile: 1, schedule: 2 } as const;

/** The slot (A or B) the model's answer takes for an item and judge: seeded, so a re-run shows the same. */
export function modelSlot(seed: number, replicate: number, itemKey: string, judge: number): "A" | "B" {
  return mulberry32(templateSeed(seed, replicate, `${itemKey}#judge${judge}`))() < 0.5 ? "A" : "B";
}

export const hicupidTask: TaskDef = {
  name: "hicupid",
  label: "HiCUPID QA (persona, profile, schedule)",
  datasetKind: "hicupid",
  items: (db, datasetId, users) => listHcItems(db, datasetId, users, ["test_1", "test_2"]),
  itemsFor: (db, datasetId, config) =>
    listHcItems(db, datasetId, config.users, config.hicupid.splits, config.hicupid.perSplit, config.seed),
  describe: describeHcItem,
  present: presentHcItem,
  estimate: (config) => ({
    assistant: 1,
    "user-simulator": 0,
    judge: config.hicupid.judges.length,
    promptTokens: 6000,
    completionTokens: 200,
  }),
  async run(ctx, item) {
    const it = loadHcItem(ctx.db, ctx.datasetId, item.itemKey);
    const ds = datasetById(ctx.db, ctx.datasetId);
    const history = loadSessions(ctx.db, ds, it.userKey);
    const spec = ctx.config.methods.find((m) => methodKey(m) === ctx.method)!;
    let answer: string;
    let input: unknown;
    let retrieved: unknown = null;
    let recall: number | null = null;
    if (isContextSetting(spec.name)) {
      const opts = CONTEXT_SETTINGS[spec.name].options.parse(spec.options ?? {}) as ContextOptions;
      const context = await historyContext(spec.name, opts, history, it.question, it.relevantDialogues, (texts) =>
        ctx.model.embed(texts, "hicupid.retrieve"),
      );
      const examples = fewShotExamples(ctx.db, ctx.datasetId, opts.shots, { excludeUser: it.userKey, seed: ctx.config.seed });
      const messages = hicupidAnswerMessages({ instruction: opts.instruction, history: context.text, examples, question: it.question });
      const r = await ctx.model.chatText({
        role: "assistant",
        purpose: `hicupid.answer.${spec.name}`,
        messages,
        parse: (t) => t.trim(),
        replicate: ctx.replicate,
      });
      answer = r.value;
      input = { setting: spec.name, options: opts, question: it.question, units: context.units.length, examples: examples.length };
      retrieved = context.units;
      recall = context.recall;
    } else {
      // A memory method answers after the whole history (session index = number of dialogues).
      const assistant = await ctx.assistant(it.userKey, history.length);
      const r = await assistant.respond({ type: "question", question: it.question });
      answer = outputOf(r, "question").answer;
      input = { question: it.question };
      retrieved = r.retrieved;
    }
    if (!answer) throw new Error(`item ${item.itemKey}: the answer is empty`);

    const scores: ScoreRow[] = [
      { scorer: "bleu", version: HICUPID_SCORE_VERSION, values: bleuValues(hfBleuStats(answer, it.personalizedAnswer)) },
      { scorer: "rouge", version: HICUPID_SCORE_VERSION, values: { rougeL: rougeL(it.personalizedAnswer, answer).fmeasure } },
    ];
    if (recall !== null)
      scores.push({ scorer: "retrieval", version: HICUPID_SCORE_VERSION, values: { recall }, detail: { relevant: it.relevantDialogues } });
    for (const [j, config] of ctx.config.hicupid.judges.entries()) {
      if (it.type === "schedule") {
        const r = await ctx.model.chatText({
          role: "judge",
          config,
          purpose: "hicupid.judge.schedule",
          messages: scheduleJudgeMessages({ metadata: it.metadata, question: it.question, answer }),
          parse: parseYesNo,
          replicate: ctx.replicate,
        });
        scores.push({
          scorer: judgeScorer(j),
          version: HICUPID_JUDGE_VERSION,
          values: { type: TYPE_CODE.schedule, yes: r.value === "YES" ? 1 : 0 },
          detail: { judge: config, reply: r.raw },
        });
        continue;
      }
      const slot = modelSlot(ctx.config.seed, ctx.replicate, item.itemKey, j);
      const [answerA, answerB] = slot === "A" ? [answer, it.personalizedAnswer] : [it.personalizedAnswer, answer];
      const r = await ctx.model.chatText({
        role: "judge",
        config,
        purpose: `hicupid.judge.${it.type}`,
        messages: abJudgeMessages({ type: it.type, metadata: it.metadata, question: it.question, answerA, answerB }),
        parse: parseAbVerdict,
        replicate: ctx.replicate,
      });
      scores.push({
        scorer: judgeScorer(j),
        version: HICUPID_JUDGE_VERSION,
        values: { type: TYPE_CODE[it.type], verdict: VERDICT_CODE[r.value], slot: slot === "A" ? 0 : 1 },
        detail: { judge: config, modelSlot: slot, verdict: r.value, reply: r.raw },
      });
    }
    return { input, output: { answer }, retrieved, scores };
  },
  metrics: (items) => hicupidMetrics(items, Math.max(1, ...items.map((s) => Object.keys(s).filter((k) => /^judge\d*$/.test(k)).length))),
};
