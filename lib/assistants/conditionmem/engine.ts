/**
 * ConditionMem's memory construction over a history session: every user input gets a yes/no
 * "worth remembering" decision; each yes gets a conditional record built from the session's
 * dialogue up to that input. Decisions of one session run together, and each record call follows
 * only its own decision, so the longest chain is two calls.
 */
import type { BaselineEntry, BaselineSession, StepContext, StepResult } from "../baselines/types";
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
      const d = await ctx.chat({
        purpose: "conditionmem.decision",
        messages: decisionPrompt(ctx.lang, t.user),
        schema: decisionSchema,
      });
      if (d.value.decision === "no") return null;
      const r = await ctx.chat({
        purpose: "conditionmem.record",
        prose: true,
        messages: recordPrompt(ctx.lang, s.turns.slice(0, i), t.user),
        schema: recordSchema,
      });
      const record: StoredRecord = { seq: s.seq, turn: i + 1, userInput: t.user, summary: r.value.summary, note: r.value.note };
      // A record exists because its decision said yes, and says what its three-step record call wrote.
      return { record, callKeys: [d.callKey, r.callKey] };
    }),
  );
  const kept = made.filter((m) => m !== null);
  const records = kept.map((m) => m.record);
  const entries: BaselineEntry[] = kept.map(({ record, callKeys }) => ({
    kind: "record",
    key: `${s.seq}:turn_${record.turn}`,
    content: record,
    visibleFrom: s.seq + 1,
    callKeys,
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
