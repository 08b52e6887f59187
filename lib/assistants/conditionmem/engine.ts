/**
 * ConditionMem's memory construction over a history session: every user input gets a yes/no
 * "worth remembering" decision; each yes gets a conditional record built from the session's
 * dialogue up to that input. Decisions of one session run together, and each record call follows
 * only its own decision, so the longest chain is two calls.
 */
import type { BaselineEntry, BaselineSession, StepContext, StepResult } from "../baseline-types";
import { decisionPrompt, decisionSchema, recordPrompt, recordSchema } from "./prompts";

/** A stored conditional record: ConditionMem keeps the summary and the note (the context is a mid-product). */
export type StoredRecord = { seq: number; turn: number; userInput: string; summary: string; note: string };

export type ConditionMemState = { records: StoredRecord[]; decisions: number; remembered: number };
export const initialConditionMemState = (): ConditionMemState => ({ records: [], decisions: 0, remembered: 0 });

export async function conditionmemStep(
  ctx: StepContext,
  state: ConditionMemState,
  s: BaselineSession,
): Promise<StepResult<ConditionMemState>> {
  const made = await Promise.all(
    s.turns.map(async (t, i) => {
      const { decision } = await ctx.chat({
        purpose: "conditionmem.decision",
        messages: decisionPrompt(ctx.lang, t.user),
        schema: decisionSchema,
      });
      if (decision === "no") return null;
      const r = await ctx.chat({
        purpose: "conditionmem.record",
        prose: true,
        messages: recordPrompt(ctx.lang, s.turns.slice(0, i), t.user),
        schema: recordSchema,
      });
      return { seq: s.seq, turn: i + 1, userInput: t.user, summary: r.summary, note: r.note } satisfies StoredRecord;
    }),
  );
  const records = made.filter((r): r is StoredRecord => r !== null);
  const entries: BaselineEntry[] = records.map((r) => ({
    kind: "record",
    key: `${s.seq}:turn_${r.turn}`,
    content: r,
    visibleFrom: s.seq + 1,
  }));
  return {
    state: {
      records: [...state.records, ...records],
      decisions: state.decisions + s.turns.length,
      remembered: state.remembered + records.length,
    },
    entries,
  };
}

/** The text a record is retrieved by and shown as. */
export const recordText = (r: Pick<StoredRecord, "summary" | "note">) => `${r.summary} ${r.note}`;

/** Calls implied: one decision per user input plus one record per "yes". */
export const conditionmemImpliedCalls = (userInputs: number, remembered: number) => userInputs + remembered;
