import { z } from "zod";
import type { Assistant, BuildContext, RespondContext } from "../core/types";
import {
  answerWithSections,
  chatOf,
  indexOf,
  logContextOf,
  putEntries,
  retrievalQuery,
  sessionTime,
  storeLogs,
  toBaselineSession,
} from "../baselines/adapter";
import { pick } from "../baselines/history-text";
import { ldAgentEstimate } from "./calls";
import {
  initialLdAgentState,
  ldAgentArrival,
  ldAgentDialogue,
  summariseBatch,
  type LdAgentContext,
  type LdAgentState,
  type LdEvent,
  type PersonaTrait,
} from "./engine";
import { extractNouns } from "./nouns";
import { LD_AGENT_BETA_SECONDS, LD_AGENT_GAMMA, LD_AGENT_TAU_SECONDS } from "./score";
import { retrieveEvents } from "./retrieve";
import { flushOnArrival, type CachedUtterance } from "./short-term";
import type { MakeIndex } from "../baselines/types";
import { createRetriever } from "@/lib/retrieval";

const options = z.object({
  k: z.number().int().min(1).max(20).default(3),
  /** τ of the time decay, seconds. */
  tauSeconds: z.number().positive().default(LD_AGENT_TAU_SECONDS),
  /** β: the gap that closes the short-term cache into an event, seconds. */
  betaSeconds: z.number().positive().default(LD_AGENT_BETA_SECONDS),
  /** γ: the semantic threshold; default per retriever (see ld-agent/score.ts). */
  gamma: z.number().min(0).optional(),
  /**
   * Optional cap: how many of the latest traits of each persona bank an answer shows. LD-Agent puts the
   * whole banks in the response prompt, so there is none by default (and none in the Mem-PAL preset).
   */
  maxPersonas: z.number().int().min(1).optional(),
});
type Options = z.infer<typeof options>;

const nouns = (text: string) => [...extractNouns(text)];

function engineCtx(ctx: BuildContext<Options> | RespondContext<Options>): LdAgentContext {
  return { chat: chatOf(ctx), lang: ctx.language, nouns, betaMs: ctx.options.betaSeconds * 1000 };
}

function stateOf(ctx: BuildContext<Options> | RespondContext<Options>): LdAgentState {
  return {
    ...initialLdAgentState(),
    cache: ctx.memory.get<CachedUtterance[]>("cache", "cache")?.content ?? [],
    events: ctx.memory.list<LdEvent>("event").map((e) => e.content),
  };
}

/** A persona bank's traits as the answer shows them: the whole bank, or the latest `cap` when a cap is set. */
export function personaItems(bank: readonly (readonly PersonaTrait[])[], cap?: number): string[] {
  const all = bank.flat().map((t) => t.trait);
  return cap === undefined ? all : all.slice(-cap);
}

/**
 * `ld-agent`: event memory with topic-aware, time-decayed retrieval, a short-term cache flushed
 * after a gap of β, and user/assistant persona banks; plus Mem-PAL's log handling.
 */
export const ldAgent: Assistant<Options> = {
  id: "ld-agent",
  label: "LD-Agent",
  description: "Event summaries with noun topics, retrieved by e^(−t/τ)(s_sem + s_top) above γ; persona banks for user and assistant.",
  options,
  entryKinds: ["log", "event", "cache", "persona-user", "persona-assistant"],
  buildRoles: ["assistant"],
  usesRetriever: true,
  estimateBuild: (sessions, ctx) => ldAgentEstimate(sessions, ctx.done),
  buildLogs: async (ctx, s) => {
    storeLogs(ctx, s);
    // The session's arrival closes the earlier conversation: visible to answers in this session.
    const r = await ldAgentArrival(engineCtx(ctx), stateOf(ctx), s.seq, sessionTime(s));
    putEntries(ctx, r.entries);
  },
  buildDialogue: async (ctx, s) => {
    const ectx = engineCtx(ctx);
    // Without logs (HiCUPID) there was no logs phase: the arrival flush happens here.
    const a = await ldAgentArrival(ectx, stateOf(ctx), s.seq, sessionTime(s));
    const d = await ldAgentDialogue(ectx, a.state, toBaselineSession(s));
    putEntries(ctx, [...a.entries, ...d.entries]);
  },
  respond: async (ctx, input) => {
    const q = retrievalQuery(input);
    const logs = await logContextOf(ctx, ctx.options.k, q);
    const at = sessionTime(ctx.current);
    const state = stateOf(ctx);
    // A cache still open when the question comes more than β later is closed now (HiCUPID's last dialogue).
    const open = flushOnArrival(state.cache, at, ctx.options.betaSeconds * 1000);
    const events = open.flushed ? [...state.events, (await summariseBatch(engineCtx(ctx), open.flushed)).event] : state.events;
    const gamma = ctx.options.gamma ?? LD_AGENT_GAMMA[ctx.retrieverKind as keyof typeof LD_AGENT_GAMMA] ?? 0;
    // γ for BM25 is set on scores normalised to [0, 1) (score.ts); normalising does not change the ranking.
    const index: MakeIndex =
      ctx.retrieverKind === "bm25" ? ((() => createRetriever("bm25", { normalize: true })) as unknown as MakeIndex) : indexOf(ctx);
    const hits = await retrieveEvents(index, nouns, q, at, events, { k: ctx.options.k, gamma, tauSeconds: ctx.options.tauSeconds });
    const latest = (kind: string) =>
      personaItems(
        ctx.memory.list<PersonaTrait[]>(kind).map((e) => e.content),
        ctx.options.maxPersonas,
      );
    const userTraits = latest("persona-user");
    const agentTraits = latest("persona-assistant");
    const noMemory = pick(ctx.language, "没有相关的记忆", "No relevant memory");
    const sections = [
      {
        label: pick(ctx.language, "相关的历史事件", "Related past events"),
        items: hits.length ? hits.map((h) => h.event.summary) : [noMemory],
      },
      { label: pick(ctx.language, "用户的个人特点", "The user's traits"), items: userTraits },
      { label: pick(ctx.language, "助手的个人特点", "The assistant's traits"), items: agentTraits },
    ];
    return answerWithSections(
      ctx,
      "ld-agent",
      input,
      logs,
      sections,
      hits.map((h) => ({ kind: "event", key: h.event.key, text: h.event.summary, score: h.score })),
    );
  },
};
