import { z } from "zod";
import type { Assistant } from "../core/types";
import { answerWithSections, chatOf, putEntries, toBaselineSession } from "../baselines/adapter";
import { pick } from "../baselines/history-text";
import { recursumEstimate } from "./calls";
import { recursumStep, type SummaryEntry } from "./engine";

const options = z.object({});

/**
 * `recursum`: the running dialogue summary M_j = LLM(M_{j-1}, D_j) and, for the logs, a separate
 * running summary L_j; an answer sees M_{j-1}, L_{j-1} and all logs of the current session.
 */
export const recursum: Assistant<z.infer<typeof options>> = {
  id: "recursum",
  label: "RecurSum",
  description: "Recursive session summaries of the dialogues and, separately, of the logs; the current logs in full.",
  options,
  entryKinds: ["dialogue-summary", "log-summary"],
  buildRoles: ["assistant"],
  usesRetriever: false,
  estimateBuild: (sessions, ctx) => recursumEstimate(sessions, ctx.done),
  buildDialogue: async (ctx, s) => {
    const state = {
      dialogueSummary: ctx.memory.get<SummaryEntry>("dialogue-summary", "M")?.content.summary ?? null,
      logSummary: ctx.memory.get<SummaryEntry>("log-summary", "L")?.content.summary ?? null,
    };
    const r = await recursumStep({ chat: chatOf(ctx), lang: ctx.language }, state, toBaselineSession(s));
    putEntries(ctx, r.entries);
  },
  respond: async (ctx, input) => {
    const m = ctx.memory.get<SummaryEntry>("dialogue-summary", "M")?.content;
    const l = ctx.memory.get<SummaryEntry>("log-summary", "L")?.content;
    const sections = [
      { label: pick(ctx.language, "用户近况摘要（日志）", "Summary of the user's circumstances (logs)"), items: l ? [l.summary] : [] },
      { label: pick(ctx.language, "历史对话记忆", "Memory of earlier conversations"), items: m ? [m.summary] : [] },
    ];
    const retrieved = [
      ...(l ? [{ kind: "log-summary", key: "L", text: l.summary }] : []),
      ...(m ? [{ kind: "dialogue-summary", key: "M", text: m.summary }] : []),
    ];
    return answerWithSections(ctx, "recursum", input, { current: ctx.current.logs, retrieved: [] }, sections, retrieved);
  },
};
