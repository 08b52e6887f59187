/**
 * Campaign judging's side of the judges (lib/judges/registry.ts): per judge, a campaign item becomes the
 * judge's input and its verdict a judge label (canonical Win/Tie/Lose for slot A, or the rating) with the
 * calls behind it. A campaign kind names its judge (`llmJudge` in lib/annotation/kinds). A campaign judge
 * run is replicate 0 of the replicate rule (lib/judges/judge.ts).
 */
import { ModelCallError } from "@/lib/llm";
import { InvalidInputError } from "@/lib/errors";
import { DIMENSIONS, type Dimension } from "@/lib/judges/dialogue-pair";
import { balancedSlots } from "@/lib/judges/hicupid";
import { JUDGES, type JudgeName } from "@/lib/judges/registry";
import type { JudgeBinding } from "@/lib/judges/judge";
import { kindDef } from "../kinds";
import type { CampaignJudgeDef, DimensionOutcome, DimensionVerdict, JudgeContext, JudgeItem } from "./types";
import { detectLang, dialogueJudgeInput, hicupidJudgeInput, utterances } from "./content";

type Adapter = Pick<CampaignJudgeDef, "calls" | "judge">;

const text = (v: unknown) => (typeof v === "string" ? v : JSON.stringify(v));

const binding = (ctx: JudgeContext, purpose: string): JudgeBinding => ({ model: ctx.model, replicate: 0, purpose });

/** A verdict, or the model failure recorded in its place (never an invented verdict). */
async function outcome(verdict: () => Promise<DimensionVerdict>): Promise<DimensionOutcome> {
  try {
    return await verdict();
  } catch (e) {
    if (!(e instanceof ModelCallError)) throw e;
    return { error: e.message, rawReply: e.rawReply };
  }
}

const isDialogueDimension = (d: string): d is Dimension => (DIMENSIONS as readonly string[]).includes(d);

/** The FairEval pair judge per dimension on the two outputs (canonical slot A is side A). */
const dialoguePair: Adapter = {
  calls: (dims) => dims.filter(isDialogueDimension).length * JUDGES["dialogue-pair"].calls,
  async judge(ctx, item, dims) {
    const a = utterances(item.outputs?.A);
    const b = utterances(item.outputs?.B);
    const info = dialogueJudgeInput(item.content);
    const lang = detectLang([info, a, b]);
    const at = binding(ctx, "campaign.judge.dialogue");
    const results = await Promise.all(
      dims.map(async (dim): Promise<DimensionOutcome> => {
        if (!isDialogueDimension(dim))
          return { error: `the pairwise dialogue judge has no "${dim}" dimension (it judges ${DIMENSIONS.join(", ")})`, rawReply: null };
        return outcome(async () => {
          const v = await JUDGES["dialogue-pair"].verdict(at, { dimension: dim, info, a, b, lang, tieMargin: ctx.settings.tieMargin });
          const analysis = `mean A ${v.meanA.toFixed(2)} vs mean B ${v.meanB.toFixed(2)} over ${v.n} judgments (${v.orders.AB} AB, ${v.orders.BA} BA)`;
          return { value: v.outcome, judgments: v.judgments, analysis };
        });
      }),
    );
    return Object.fromEntries(dims.map((d, i) => [d, results[i]]));
  },
};

/** The model's answer's slot per item of a campaign, by the answer-slot rule (balancedSlots) over all its items. */
export function campaignAnswerSlots(items: ReadonlyArray<Pick<JudgeItem, "externalId" | "content">>, seed: number): Map<string, "A" | "B"> {
  return balancedSlots(
    items.map((i) => ({ itemKey: i.externalId, type: hicupidJudgeInput(i.content).type })),
    seed,
    0,
    0,
  );
}

const slotsByItems = new WeakMap<readonly JudgeItem[], Map<number, Map<string, "A" | "B">>>();
function modelSlot(ctx: JudgeContext, item: JudgeItem): "A" | "B" {
  let bySeed = slotsByItems.get(ctx.items);
  if (!bySeed) slotsByItems.set(ctx.items, (bySeed = new Map()));
  let slots = bySeed.get(ctx.settings.seed);
  if (!slots) bySeed.set(ctx.settings.seed, (slots = campaignAnswerSlots(ctx.items, ctx.settings.seed)));
  return slots.get(item.externalId) ?? "B";
}

/** HiCUPID's A/B judge: canonical slot A is the model's answer, B the reference; one verdict for every dimension. */
const hicupidAb: Adapter = {
  calls: (dims) => (dims.length ? JUDGES["hicupid-ab"].calls : 0),
  async judge(ctx, item, dims) {
    const { type, metadata } = hicupidJudgeInput(item.content);
    const result = await outcome(async () => {
      const v = await JUDGES["hicupid-ab"].verdict(binding(ctx, "campaign.judge.hicupid"), {
        type,
        metadata,
        question: text(item.content.question),
        answer: text(item.outputs?.A),
        reference: text(item.outputs?.B),
        modelSlot: modelSlot(ctx, item),
      });
      const value = v.outcome === "win" ? "Win" : v.outcome === "lose" ? "Lose" : "Tie";
      return { value, judgments: [{ modelSlot: v.modelSlot, verdict: v.verdict, reply: v.reply }], analysis: v.reply };
    });
    return Object.fromEntries(dims.map((d) => [d, result]));
  },
};

/** The 1–3 rating judge per dimension, reading what the annotators read. */
const rating: Adapter = {
  calls: (dims) => dims.length * JUDGES.rating.calls,
  async judge(ctx, item, dims) {
    const lang = detectLang(item.content);
    const at = binding(ctx, "campaign.judge.rating");
    const results = await Promise.all(
      dims.map(async (key): Promise<DimensionOutcome> => {
        const dimension = ctx.dimensions.find((d) => d.key === key);
        if (!dimension) return { error: `no dimension "${key}" in this campaign`, rawReply: null };
        return outcome(async () => {
          const v = await JUDGES.rating.verdict(at, { guidelines: ctx.guidelines, dimension, content: item.content, lang });
          return { value: String(v.score), judgments: [{ score: v.score, analysis: v.analysis }], analysis: v.analysis };
        });
      }),
    );
    return Object.fromEntries(dims.map((d, i) => [d, results[i]]));
  },
};

/**
 * Answer correctness (LoCoMo / LongMemEval answers): LongMemEval's yes/no judge with its plain template on the
 * question, the reference and the answer; yes reads "correct", no "wrong" (the judge has no "partly").
 */
const answerCheck: Adapter = {
  calls: (dims) => (dims.length ? JUDGES.longmemeval.calls : 0),
  async judge(ctx, item, dims) {
    const c = (item.content.context ?? {}) as { question?: unknown; reference?: unknown };
    const result = await outcome(async () => {
      const v = await JUDGES.longmemeval.verdict(binding(ctx, "longmemeval.judge.campaign"), {
        questionType: "single-session-user",
        abstention: false,
        question: text(c.question),
        reference: text(c.reference),
        response: text(item.content.output),
      });
      return { value: v.correct ? "correct" : "wrong", judgments: [{ correct: v.correct, reply: v.reply }], analysis: v.reply };
    });
    return Object.fromEntries(dims.map((d) => [d, result]));
  },
};

const ADAPTERS: Partial<Record<JudgeName, Adapter>> = {
  "dialogue-pair": dialoguePair,
  "hicupid-ab": hicupidAb,
  rating,
  longmemeval: answerCheck,
};

/** The judge a campaign kind names, with its campaign adapter. */
export function judgeForKind(kind: string): CampaignJudgeDef {
  const name = kindDef(kind).llmJudge;
  const adapter = name ? ADAPTERS[name] : undefined;
  if (!name || !adapter) throw new InvalidInputError(`no LLM judge applies to ${kind} campaigns`);
  return { name, label: JUDGES[name].label, ...adapter };
}
