/**
 * Task 3, multi-turn dialogue. Phase 0, per method and query topic: a user simulator follows the topic's
 * action template turn by turn and the method answers each turn through its respond() (a method such as
 * H2Memory first summarises a retrieval query from the dialogue and switches its memory with the phase).
 * Phase 1, per pair (reference method vs each other): the pairwise dialogue judge (lib/judges/dialogue-pair.ts,
 * FairEval) on each dimension; this task only gives it the two dialogues and stores its verdicts.
 */
import { DIMENSIONS, type Utterance } from "@/lib/judges/dialogue-pair";
import { JUDGES } from "@/lib/judges/registry";
import { JUDGE_TEMPERATURE } from "@/lib/judges/judge";
import { taskJudgeModel } from "../judge-model";
import { describePalItem, exportPalItem, presentPalItem, describeUser, listQueryTopics, palItemOf } from "../palset-items";
import { utteranceOutput } from "../prompts";
import { outputOf } from "../ports";
import type { AssistantActionCode } from "@/lib/assistants/core/sessions";
import type { TaskDef } from "../types";
import { generateTemplate, parseTemplate, templateSeed, type DialogueTemplate } from "./template";
import { simulatorMessages } from "./prompts";

export const DIALOGUE_VERSION = 1;
const judge = JUDGES["dialogue-pair"];

export type DialogueOutput = { template: DialogueTemplate; dialogue: Utterance[] };

export const dialogueTask: TaskDef = {
  name: "dialogue",
  label: "Multi-turn dialogue (Task 3, pairwise FairEval)",
  datasetKind: "palset",
  items: listQueryTopics,
  describe: describePalItem,
  present: (db, datasetId, itemKey) => presentPalItem(db, datasetId, itemKey, "dialogue"),
  exportItem: (db, datasetId, itemKey) => exportPalItem(db, datasetId, itemKey, "dialogue"),
  // 6 turns on average: a simulator line and a reply per turn (a method may add its own retrieval query).
  estimate: () => ({ assistant: 6, "user-simulator": 6, judge: 0, promptTokens: 1500, completionTokens: 120 }),
  async run(ctx, item) {
    const it = palItemOf(ctx, item.itemKey);
    const template = it.dialogueTemplate
      ? parseTemplate(it.dialogueTemplate, `dialogue_template[${it.sampleKey}_${it.topicKey}]`)
      : generateTemplate(templateSeed(ctx.config.seed, ctx.replicate, item.itemKey));
    const assistant = await ctx.assistant(it.userKey, it.sessionSeq);
    const user = describeUser(it.background);
    const profile = { ...user, situation: it.situation };
    // The requirement framework and the solution preference (needs with evidence, solutions with reasons),
    // as Mem-PAL's public evaluation code gives its User-LLM; bare needs/solutions when not imported.
    const topic = {
      userQuery: it.userQuery,
      implicitNeeds: it.framework.needs,
      requirement: it.requirement,
      generalPreference: it.generalPreference,
      solutions: it.framework.solutions,
    };
    const dialogue: Utterance[] = [];
    const retrieved: unknown[] = [];
    for (const [i, turn] of template.turns.entries()) {
      const said = await ctx.model.chatJson({
        role: "user-simulator",
        purpose: "dialogue.simulator",
        messages: simulatorMessages({ profile, topic, dialogue, turn: i + 1, action: turn.user }, ctx.lang),
        schema: utteranceOutput,
        replicate: ctx.replicate,
        language: ctx.lang,
      });
      dialogue.push({ role: "user", content: said.value.content });
      // The method answers the turn: it retrieves for itself (H2Memory summarises a query from the dialogue).
      const turns: Array<{ user: string; assistant?: string }> = [];
      for (let k = 0; k < dialogue.length; k += 2)
        turns.push({ user: dialogue[k].content, ...(dialogue[k + 1] ? { assistant: dialogue[k + 1].content } : {}) });
      const reply = await assistant.respond({ type: "dialogue", turns, action: turn.assistant as AssistantActionCode });
      retrieved.push({ turn: i + 1, entries: reply.retrieved });
      dialogue.push({ role: "assistant", content: outputOf(reply, "dialogue").content });
    }
    const output: DialogueOutput = { template, dialogue };
    return { input: { template, simulatorInputs: it.framework.from }, output, retrieved, scores: [] };
  },
  metrics: () => ({}),
  pairs: {
    estimate: () => ({
      assistant: 0,
      "user-simulator": 0,
      judge: judge.calls * DIMENSIONS.length,
      promptTokens: 2500,
      completionTokens: 300,
    }),
    async run(ctx, item, a, b) {
      const it = palItemOf(ctx, item.itemKey);
      const da = (ctx.jobOutput(a, item.itemKey) as DialogueOutput | null)?.dialogue;
      const db = (ctx.jobOutput(b, item.itemKey) as DialogueOutput | null)?.dialogue;
      if (!da || !db) throw new Error(`dialogue of ${!da ? a : b} for ${item.itemKey} is missing`);
      const user = describeUser(it.background);
      const info = {
        ...user,
        situation: it.situation,
        userQuery: it.userQuery,
        implicitNeeds: it.framework.needs,
        requirement: it.requirement,
        generalPreference: it.generalPreference ?? { pos: [], neg: [] },
        solutions: it.framework.solutions,
      };
      const at = {
        model: taskJudgeModel(ctx.model, "judge:dialogue", ctx.config.models.judge?.temperature ?? JUDGE_TEMPERATURE),
        replicate: ctx.replicate,
        purpose: "dialogue.judge",
      };
      const verdicts = await Promise.all(
        DIMENSIONS.map((dimension) =>
          judge.verdict(at, { dimension, info, a: da, b: db, lang: ctx.lang, tieMargin: ctx.config.tieMargin ?? 0 }),
        ),
      );
      const values: Record<string, number | null> = {};
      const detail: Record<string, unknown> = {};
      DIMENSIONS.forEach((dim, i) => {
        const { outcome, meanA, meanB, judgments } = verdicts[i];
        values[dim] = outcome === "Win" ? 1 : outcome === "Lose" ? -1 : 0;
        values[`${dim}MeanA`] = meanA;
        values[`${dim}MeanB`] = meanB;
        detail[dim] = { outcome, meanA, meanB, judgments };
      });
      return { input: { a, b }, output: { a, b }, scores: [{ scorer: "faireval", version: judge.version, values, detail }] };
    },
  },
};
