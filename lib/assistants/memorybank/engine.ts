/**
 * MemoryBank over PAL-Set / HiCUPID dialogues: timestamped turn memory, one event summary and one
 * daily portrait per session, a global summary and a global portrait folded forward, and a memory
 * strength per piece (turns and event summaries) that recall raises (forgetting.ts).
 * Recall happens while building: at session j the forgetting rule first runs at j's time (as the public
 * code forgets before it searches), and what it drops is gone for good (recorded with `forgottenAt`, never
 * recalled or retrieved again); then j's user inputs retrieve the top-k of the remaining pieces, and those
 * get stronger (up to the curve's cap, if any) with their clock reset to session j. Answering never changes memory, so a
 * task's result does not depend on the order tasks run in.
 * A session's event and daily-portrait calls run together; each global update waits only for its
 * own input, so the longest chain grows by one call per session.
 */
import { setImmediate } from "node:timers/promises";
import type { BaselineEntry, BaselineSession, MakeIndex, StepContext, StepResult } from "../baselines/types";
import { formatTurns } from "../baselines/history-text";
import { dailyPortraitPrompt, eventSchema, eventSummaryPrompt, globalPortraitPrompt, globalSummaryPrompt, portraitSchema } from "./prompts";
import {
  CURVE_RULES,
  curveOf,
  decideForgetting,
  DEFAULT_FORGET_RULE,
  newTrace,
  recall,
  type ForgetRule,
  type MemoryTrace,
} from "./forgetting";

/**
 * A memory piece: its forgetting trace (id, strength, last recall) and what it says. `forgottenAt`: the
 * time of the session at whose arrival the forgetting rule dropped it (it stays in the store for the
 * inspector, but nothing recalls or retrieves it again).
 */
export type Piece = MemoryTrace & { kind: "turn" | "event"; seq: number; date: string; text: string; forgottenAt?: number };

/** The pieces not yet forgotten. */
export const livePieces = (pieces: readonly Piece[]): Piece[] => pieces.filter((p) => p.forgottenAt === undefined);

/**
 * The ids of the live pieces the rule forgets at time `at`. Turns are drawn against R. A session's
 * event summary fades on its own only under the 0cc7111 curve; under the newest code's curves it is
 * dropped when every turn of its session is gone (3869efc forget_memory.py lines 129-131: a day's
 * summary goes with the day's last dialogue).
 */
export function forgottenPieces(live: readonly Piece[], at: number, rule: ForgetRule): Set<string> {
  const fade = CURVE_RULES[curveOf(rule)].summariesFade;
  const drawn = fade ? live : live.filter((p) => p.kind === "turn");
  const dropped = new Set(
    decideForgetting(drawn, at, rule)
      .filter((d) => !d.kept)
      .map((d) => d.trace.id),
  );
  if (!fade) {
    const daysLeft = new Set(live.filter((p) => p.kind === "turn" && !dropped.has(p.id)).map((p) => p.seq));
    for (const p of live) if (p.kind === "event" && !daysLeft.has(p.seq)) dropped.add(p.id);
  }
  return dropped;
}

export type MemoryBankState = { pieces: Piece[]; globalSummary: string | null; globalPortrait: string | null };
export const initialMemoryBankState = (): MemoryBankState => ({ pieces: [], globalSummary: null, globalPortrait: null });

export type MemoryBankContext = StepContext & {
  makeIndex: MakeIndex;
  k: number;
  /** The forgetting rule applied at each session's arrival (default: seeded sampling, seed 42). */
  forget?: ForgetRule;
  /** Strength cap (default: the curve's; none for the newest code's curves, 3 for 0cc7111). */
  maxStrength?: number;
};

/** The pieces a session's user inputs bring back from the memory built before it (top-k each). */
export async function recallIds(
  makeIndex: MakeIndex,
  pieces: readonly Piece[],
  queries: readonly string[],
  k: number,
): Promise<Set<string>> {
  const ids = new Set<string>();
  if (!pieces.length || !queries.length) return ids;
  const index = makeIndex<Piece>();
  await index.add(pieces.map((p) => ({ id: p.id, text: p.text, meta: p })));
  for (const q of queries) for (const h of await index.search(q, k)) ids.add(h.id);
  return ids;
}

/**
 * The two calls that read one session alone (its event summary and daily portrait): the step makes
 * them, and the builder may start them ahead (prefetch) with the very same requests.
 */
export function sessionSummaries(ctx: StepContext, s: BaselineSession) {
  return [
    ctx.chat({ purpose: "memorybank.event", prose: true, messages: eventSummaryPrompt(ctx.lang, s.date, s.turns), schema: eventSchema }),
    ctx.chat({
      purpose: "memorybank.daily-portrait",
      prose: true,
      messages: dailyPortraitPrompt(ctx.lang, s.date, s.turns),
      schema: portraitSchema,
    }),
  ] as const;
}

export async function memorybankStep(
  ctx: MemoryBankContext,
  state: MemoryBankState,
  s: BaselineSession,
): Promise<StepResult<MemoryBankState>> {
  const visibleFrom = s.seq + 1;
  const entries: BaselineEntry[] = [];
  // The session's calls do not depend on recall, so they start first (each global update as soon
  // as its own input is back) and recall runs meanwhile.
  const [eventP, portraitP] = s.turns.length ? sessionSummaries(ctx, s) : [null, null];
  const summaryP = eventP?.then((e) =>
    ctx.chat({
      purpose: "memorybank.global-summary",
      prose: true,
      messages: globalSummaryPrompt(ctx.lang, state.globalSummary, s.date, e.value.summary),
      schema: eventSchema,
    }),
  );
  const portraitUpdateP = portraitP?.then((p) =>
    ctx.chat({
      purpose: "memorybank.global-portrait",
      prose: true,
      messages: globalPortraitPrompt(ctx.lang, state.globalPortrait, s.date, p.value.portrait),
      schema: portraitSchema,
    }),
  );
  // Should recall fail, the pending calls' failures are not left unhandled.
  for (const p of [eventP, portraitP, summaryP, portraitUpdateP]) void p?.catch(() => undefined);
  // Recall: only what existed before this session can be brought back by it. Its indexing is
  // synchronous work: let the calls above reach the model first (they are the build's chain).
  await setImmediate();
  // Forget first, at this session's time: a dropped piece can no longer be recalled (no revival).
  const rule = ctx.forget ?? DEFAULT_FORGET_RULE;
  const live = livePieces(state.pieces);
  const dropped = forgottenPieces(live, s.at, rule);
  const maxStrength = ctx.maxStrength ?? CURVE_RULES[curveOf(rule)].maxStrength;
  const hit = await recallIds(
    ctx.makeIndex,
    live.filter((p) => !dropped.has(p.id)),
    s.turns.map((t) => t.user),
    ctx.k,
  );
  const pieces = state.pieces.map((p) => {
    if (dropped.has(p.id)) {
      const f = { ...p, forgottenAt: s.at };
      // Forgotten at this session's arrival: its answers already must not see it.
      entries.push({ kind: p.kind, key: p.id, content: f, visibleFrom: s.seq, callKeys: [] });
      return f;
    }
    if (!hit.has(p.id)) return p;
    const r = { ...p, ...recall(p, s.at, { maxStrength }) };
    // A strength change is arithmetic, not a reply: no call made this version of the piece.
    entries.push({ kind: p.kind, key: p.id, content: r, visibleFrom, callKeys: [] });
    return r;
  });
  if (!eventP || !portraitP || !summaryP || !portraitUpdateP) return { state: { ...state, pieces }, entries };

  s.turns.forEach((t, i) => {
    const piece: Piece = {
      ...newTrace(`turn:${s.seq}:${i + 1}`, s.at),
      kind: "turn",
      seq: s.seq,
      date: s.date,
      text: formatTurns(ctx.lang, [t]),
    };
    pieces.push(piece);
    entries.push({ kind: "turn", key: piece.id, content: piece, visibleFrom, callKeys: [] });
  });
  const [globalSummary, globalPortrait, event, daily] = await Promise.all([summaryP, portraitUpdateP, eventP, portraitP]);
  const eventPiece: Piece = {
    ...newTrace(`event:${s.seq}`, s.at),
    kind: "event",
    seq: s.seq,
    date: s.date,
    text: event.value.summary,
  };
  pieces.push(eventPiece);
  // Each global update folds in this session's reply it was given, so it links to that call and its own.
  entries.push(
    { kind: "event", key: eventPiece.id, content: eventPiece, visibleFrom, callKeys: [event.callKey] },
    { kind: "daily-portrait", key: `portrait:${s.seq}`, content: daily.value.portrait, visibleFrom, callKeys: [daily.callKey] },
    {
      kind: "global-summary",
      key: "global-summary",
      content: globalSummary.value.summary,
      visibleFrom,
      callKeys: [event.callKey, globalSummary.callKey],
    },
    {
      kind: "global-portrait",
      key: "global-portrait",
      content: globalPortrait.value.portrait,
      visibleFrom,
      callKeys: [daily.callKey, globalPortrait.callKey],
    },
  );
  return {
    state: { pieces, globalSummary: globalSummary.value.summary, globalPortrait: globalPortrait.value.portrait },
    entries,
  };
}

/** Calls implied: four per session with dialogue (event, daily portrait, global summary, global portrait). */
export const memorybankImpliedCalls = (sessions: readonly Pick<BaselineSession, "turns">[]) =>
  sessions.filter((s) => s.turns.length).length * 4;
