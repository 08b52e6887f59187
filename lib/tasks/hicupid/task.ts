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
import { methodKey } from "../method-key";
import type { Db } from "@/db/client";
import { balancedSlots } from "@/lib/judges/hicupid";
import { JUDGES } from "@/lib/judges/registry";
import { JUDGE_TEMPERATURE } from "@/lib/judges/judge";
import { datasetById, loadSessions } from "@/lib/assistants/core/sessions";
import { outputOf } from "../ports";
import { taskJudgeModel } from "../judge-model";
import type { ScoreRow, TaskConfig, TaskDef } from "../types";
import { abItemTypes, describeHcItem, dialogueTypes, fewShotSet, listHcItems, loadHcItem, presentHcItem } from "./items";
import { historyContext } from "./context";
import { hicupidAnswerMessages } from "./prompts";
import { CONTEXT_SETTINGS, isContextSetting, type ContextOptions } from "./settings";
import { bleuValues, hicupidMetrics, hitValues, judgeScorer, VERDICT_CODE } from "./scores";

/** 2: per-item BLEU mean, hit rate. */
export const HICUPID_SCORE_VERSION = 2;
const TYPE_CODE = { persona: 0, profile: 1, schedule: 2 } as const;

/** The slots of one run's A/B items (all of the run's items, whichever job asks), computed once per run. */
const slotCache = new Map<string, Map<string, "A" | "B">>();
function runSlots(db: Db, datasetId: number, config: TaskConfig, replicate: number, judge: number): Map<string, "A" | "B"> {
  const key = `${db.$client.name}|${datasetId}|${JSON.stringify([config.users, config.hicupid, config.seed])}|${replicate}|${judge}`;
  let slots = slotCache.get(key);
  if (!slots) {
    const keys = listHcItems(db, datasetId, config.users, config.hicupid.splits, config.hicupid.perSplit, config.seed).map(
      (i) => i.itemKey,
    );
    slots = balancedSlots(abItemTypes(db, datasetId, keys), config.seed, replicate, judge);
    if (slotCache.size > 50) slotCache.clear();
    slotCache.set(key, slots);
  }
  return slots;
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
  exportItem: (db, datasetId, itemKey) => {
    const it = loadHcItem(db, datasetId, itemKey);
    return { question: it.question, reference: it.personalizedAnswer };
  },
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
    let hit: Record<string, number> = {};
    if (isContextSetting(spec.name)) {
      const opts = CONTEXT_SETTINGS[spec.name].options.parse(spec.options ?? {}) as ContextOptions;
      const context = await historyContext(spec.name, opts, history, it.question, it.relevantDialogues, (texts) =>
        ctx.model.embed(texts, "hicupid.retrieve"),
      );
      const shots = fewShotSet(ctx.db, ctx.datasetId, opts.shots, { excludeUser: it.userKey, seed: ctx.config.seed });
      const examples = shots.examples;
      const messages = hicupidAnswerMessages({ instruction: opts.instruction, history: context.turns, examples, question: it.question });
      const r = await ctx.model.chatText({
        role: "assistant",
        purpose: `hicupid.answer.${spec.name}`,
        messages,
        parse: (t) => t.trim(),
        replicate: ctx.replicate,
      });
      answer = r.value;
      input = {
        setting: spec.name,
        options: opts,
        question: it.question,
        units: context.units.length,
        examples: examples.length,
        // Which examples: the public code's fixed train QAs, or the seeded fallback when the train split lacks them.
        ...(opts.shots ? { exampleSource: shots.source, examplesOfOwnUser: shots.ownUser } : {}),
      };
      retrieved = context.units;
      recall = context.recall;
      if (recall !== null) {
        const types = dialogueTypes(ctx.db, ctx.datasetId, it.userKey);
        hit = hitValues(
          it.type,
          it.relevantDialogues.map((k) => ({ key: k, type: types.get(k) ?? null })),
          new Set(context.units.map((u) => u.dialogue)),
        );
      }
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
      scores.push({
        scorer: "retrieval",
        version: HICUPID_SCORE_VERSION,
        values: { recall, type: TYPE_CODE[it.type], ...hit },
        detail: { relevant: it.relevantDialogues },
      });
    // The public scripts' reading records whether each reply held a verdict (the unparsed are counted as Tie/NO).
    const verdicts = ctx.config.hicupid.verdicts ?? "retry";
    const parsedValue = (parsed: boolean): Record<string, number> => (verdicts === "public" ? { parsed: parsed ? 1 : 0 } : {});
    for (const [j, config] of ctx.config.hicupid.judges.entries()) {
      const at = {
        model: taskJudgeModel(ctx.model, config, ctx.config.models.judge?.temperature ?? JUDGE_TEMPERATURE),
        replicate: ctx.replicate,
        purpose: "hicupid.judge",
      };
      if (it.type === "schedule") {
        const judge = JUDGES["hicupid-schedule"];
        const v = await judge.verdict(at, { metadata: it.metadata, question: it.question, answer, verdicts });
        scores.push({
          scorer: judgeScorer(j),
          version: judge.version,
          values: { type: TYPE_CODE.schedule, yes: v.verdict === "YES" ? 1 : 0, ...parsedValue(v.parsed) },
          detail: { judge: config, reply: v.reply },
        });
        continue;
      }
      const judge = JUDGES["hicupid-ab"];
      const modelSlot = runSlots(ctx.db, ctx.datasetId, ctx.config, ctx.replicate, j).get(item.itemKey) ?? "B";
      const v = await judge.verdict(at, {
        type: it.type,
        metadata: it.metadata,
        question: it.question,
        answer,
        reference: it.personalizedAnswer,
        modelSlot,
        verdicts,
      });
      scores.push({
        scorer: judgeScorer(j),
        version: judge.version,
        values: { type: TYPE_CODE[it.type], verdict: VERDICT_CODE[v.verdict], slot: modelSlot === "A" ? 0 : 1, ...parsedValue(v.parsed) },
        detail: { judge: config, modelSlot, verdict: v.verdict, reply: v.reply },
      });
    }
    return { input, output: { answer }, retrieved, scores };
  },
  metrics: (items) => hicupidMetrics(items, Math.max(1, ...items.map((s) => Object.keys(s).filter((k) => /^judge\d*$/.test(k)).length))),
};
