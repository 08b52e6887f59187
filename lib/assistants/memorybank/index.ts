import { z } from "zod";
import type { Assistant } from "../core/types";
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
import { memorybankEstimate } from "./calls";
import { memorybankStep, sessionSummaries, type Piece } from "./engine";
import { memorybankRecall } from "./recall";
import { FORGET_CURVES } from "./forgetting";

/** Which public commit's forgetting curve (forgetting.ts): as written in 3869efc (default), its intended form, or 0cc7111's. */
const curve = z.enum(FORGET_CURVES).default("as-written");

const options = z.object({
  k: z.number().int().min(1).max(20).default(3),
  /** "sample": keep a piece with probability R (seeded, reproducible); "threshold": keep while R ≥ threshold. */
  forget: z
    .discriminatedUnion("kind", [
      z.object({ kind: z.literal("sample"), seed: z.number().int().default(42), curve }),
      z.object({ kind: z.literal("threshold"), threshold: z.number().min(0).max(1), curve }),
    ])
    .default({ kind: "sample", seed: 42, curve: "as-written" }),
});

/**
 * `memorybank`: timestamped turns, per-session event summaries and daily portraits, a global
 * summary and portrait, and Ebbinghaus forgetting with recall reinforcement; plus Mem-PAL's log handling.
 */
export const memorybank: Assistant<z.infer<typeof options>> = {
  id: "memorybank",
  label: "MemoryBank",
  description: "Turn memory and event summaries with forgetting (strength grows on recall), a global summary and a user portrait.",
  options,
  entryKinds: ["log", "turn", "event", "daily-portrait", "global-summary", "global-portrait"],
  buildRoles: ["assistant"],
  usesRetriever: true,
  estimateBuild: (sessions, ctx) => memorybankEstimate(sessions, ctx.done),
  buildLogs: async (ctx, s) => storeLogs(ctx, s),
  // A session's event summary and daily portrait read its dialogue alone.
  prefetch: async (ctx, s) => {
    const b = toBaselineSession(s);
    if (b.turns.length) await Promise.all(sessionSummaries({ chat: chatOf(ctx), lang: ctx.language }, b));
  },
  buildDialogue: async (ctx, s) => {
    const pieces = [...ctx.memory.list<Piece>("turn"), ...ctx.memory.list<Piece>("event")].map((e) => e.content);
    const state = {
      pieces,
      globalSummary: ctx.memory.get<string>("global-summary", "global-summary")?.content ?? null,
      globalPortrait: ctx.memory.get<string>("global-portrait", "global-portrait")?.content ?? null,
    };
    const r = await memorybankStep(
      { chat: chatOf(ctx), lang: ctx.language, makeIndex: indexOf(ctx), k: ctx.options.k, forget: ctx.options.forget },
      state,
      toBaselineSession(s),
    );
    putEntries(ctx, r.entries);
  },
  respond: async (ctx, input) => {
    const q = retrievalQuery(input);
    const logs = await logContextOf(ctx, ctx.options.k, q);
    const pieces = [...ctx.memory.list<Piece>("turn"), ...ctx.memory.list<Piece>("event")].map((e) => e.content);
    const { retrieved } = await memorybankRecall(indexOf(ctx), ctx.options.k, q, pieces, sessionTime(ctx.current), ctx.options.forget);
    const summary = ctx.memory.get<string>("global-summary", "global-summary")?.content;
    const portrait = ctx.memory.get<string>("global-portrait", "global-portrait")?.content;
    const sections = [
      { label: pick(ctx.language, "用户画像", "User portrait"), items: portrait ? [portrait] : [] },
      { label: pick(ctx.language, "历史事件总览", "Overview of past events"), items: summary ? [summary] : [] },
      { label: pick(ctx.language, "相关的记忆", "Related memories"), items: retrieved.map((p) => `[${p.date}] ${p.text}`) },
    ];
    return answerWithSections(ctx, "memorybank", input, logs, sections, [
      ...(portrait ? [{ kind: "global-portrait", key: "global-portrait", text: portrait }] : []),
      ...(summary ? [{ kind: "global-summary", key: "global-summary", text: summary }] : []),
      ...retrieved.map((p) => ({ kind: p.kind, key: p.id, text: p.text })),
    ]);
  },
};
