/**
 * RecurSum over PAL-Set: two running summaries folded forward one session at a time, the dialogue
 * memory M_j = LLM(M_{j-1}, D_j) and (Mem-PAL's log handling) a log summary L_j = LLM(L_{j-1}, logs_j).
 * The two chains do not depend on each other, so a session's two calls run together.
 */
import type { BaselineEntry, BaselineSession, StepContext, StepResult } from "../baselines/types";
import { dialogueSummaryPrompt, logSummaryPrompt, summarySchema } from "./prompts";

/** The stored form of M_j and L_j. */
export type SummaryEntry = { seq: number; summary: string };

export type RecurSumState = { dialogueSummary: string | null; logSummary: string | null };
export const initialRecurSumState = (): RecurSumState => ({ dialogueSummary: null, logSummary: null });

export async function recursumStep(ctx: StepContext, state: RecurSumState, s: BaselineSession): Promise<StepResult<RecurSumState>> {
  const [dialogue, logs] = await Promise.all([
    s.turns.length
      ? ctx.chat({
          purpose: "recursum.dialogue-summary",
          prose: true,
          messages: dialogueSummaryPrompt(ctx.lang, state.dialogueSummary, s.turns),
          schema: summarySchema,
        })
      : null,
    s.logs.length
      ? ctx.chat({
          purpose: "recursum.log-summary",
          prose: true,
          messages: logSummaryPrompt(ctx.lang, state.logSummary, s.logs),
          schema: summarySchema,
        })
      : null,
  ]);
  const next: RecurSumState = {
    dialogueSummary: dialogue?.value.summary ?? state.dialogueSummary,
    logSummary: logs?.value.summary ?? state.logSummary,
  };
  const entries: BaselineEntry[] = [];
  // One entry per chain under a fixed key: each update replaces the previous one from the next session on.
  // Each is the reply of its own summary call (the previous summary's calls stay on the entry it replaces).
  if (dialogue)
    entries.push({
      kind: "dialogue-summary",
      key: "M",
      content: { seq: s.seq, summary: dialogue.value.summary },
      visibleFrom: s.seq + 1,
      callKeys: [dialogue.callKey],
    });
  if (logs)
    entries.push({
      kind: "log-summary",
      key: "L",
      content: { seq: s.seq, summary: logs.value.summary },
      visibleFrom: s.seq + 1,
      callKeys: [logs.callKey],
    });
  return { state: next, entries };
}

/** Calls the algorithm implies: one per session with dialogue plus one per session with logs. */
export const recursumImpliedCalls = (sessions: readonly Pick<BaselineSession, "logs" | "turns">[]) =>
  sessions.reduce((n, s) => n + (s.turns.length ? 1 : 0) + (s.logs.length ? 1 : 0), 0);
