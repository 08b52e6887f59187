/**
 * LD-Agent's memory over a user's sessions: the short-term cache of the ongoing conversation,
 * event memory (a summary of each flushed cache with its time and the nouns behind it), and the
 * user's and the assistant's persona banks, extracted utterance by utterance.
 * A session's arrival flushes the cache of earlier sessions when the gap exceeds β (`ldAgentArrival`,
 * made of earlier sessions only, so answers in that session may use it); its dialogue then adds
 * traits and fills the cache again (`ldAgentDialogue`, visible from the next session).
 */
import type { BaselineEntry, BaselineSession, StepContext, StepResult } from "../baselines/types";
import { speaker, type Lang } from "../baselines/history-text";
import { eventSummaryPrompt, eventSummarySchema, personaPrompt, personaSchema } from "./prompts";
import { DEFAULT_BETA_MS, flushOnArrival, pushAll, type CachedUtterance } from "./short-term";

export type LdEvent = { key: string; at: number; summary: string; nouns: string[]; seqs: number[] };
export type PersonaTrait = { seq: number; turn: number; trait: string };

export type LdAgentState = { cache: CachedUtterance[]; events: LdEvent[]; userPersona: PersonaTrait[]; agentPersona: PersonaTrait[] };
export const initialLdAgentState = (): LdAgentState => ({ cache: [], events: [], userPersona: [], agentPersona: [] });

export type NounFn = (text: string, lang: Lang) => string[];
export type LdAgentContext = StepContext & { nouns: NounFn; betaMs?: number };

const line = (lang: Lang, u: CachedUtterance) => `${speaker(lang, u.speaker)}: ${u.text}`;

/**
 * Summarises one flushed batch into an event (one call); its nouns come from the batch's text.
 * Returns the summarising call's key beside the event, for the event's entry.
 */
export async function summariseBatch(ctx: LdAgentContext, batch: readonly CachedUtterance[]): Promise<{ event: LdEvent; callKey: string }> {
  const lines = batch.map((u) => line(ctx.lang, u));
  const { value, callKey } = await ctx.chat({
    purpose: "ld-agent.event-summary",
    prose: true,
    messages: eventSummaryPrompt(ctx.lang, lines),
    schema: eventSummarySchema,
  });
  const seqs = [...new Set(batch.map((u) => u.seq))];
  const event: LdEvent = {
    key: `event:${seqs.join("-")}`,
    at: batch[batch.length - 1].at,
    summary: value.summary,
    nouns: ctx.nouns(lines.join("\n"), ctx.lang),
    seqs,
  };
  return { event, callKey };
}

/** The flush caused by a session arriving at `at`: entries are visible to answers in that session. */
export async function ldAgentArrival(ctx: LdAgentContext, state: LdAgentState, seq: number, at: number): Promise<StepResult<LdAgentState>> {
  const arrival = flushOnArrival(state.cache, at, ctx.betaMs ?? DEFAULT_BETA_MS);
  if (!arrival.flushed) return { state, entries: [] };
  const { event, callKey } = await summariseBatch(ctx, arrival.flushed);
  return {
    state: { ...state, cache: arrival.cache, events: [...state.events, event] },
    entries: [
      { kind: "event", key: event.key, content: event, visibleFrom: seq, callKeys: [callKey] },
      // The cache is what is left of the utterances: no call made it.
      { kind: "cache", key: "cache", content: arrival.cache, visibleFrom: seq, callKeys: [] },
    ],
  };
}

/** The session's dialogue: persona extraction per utterance, and its utterances into the cache. */
export async function ldAgentDialogue(ctx: LdAgentContext, state: LdAgentState, s: BaselineSession): Promise<StepResult<LdAgentState>> {
  const beta = ctx.betaMs ?? DEFAULT_BETA_MS;
  const utterances: CachedUtterance[] = s.turns.flatMap((t) => [
    { at: s.at, speaker: "user" as const, text: t.user, seq: s.seq },
    { at: s.at, speaker: "assistant" as const, text: t.assistant, seq: s.seq },
  ]);
  // Utterances of one session share its timestamp, so this flushes only when given finer times.
  const pushed = pushAll(state.cache, utterances, beta);
  const extract = (text: string) =>
    ctx.chat({ purpose: "ld-agent.persona", messages: personaPrompt(ctx.lang, text), schema: personaSchema });
  const [summarised, personas] = await Promise.all([
    Promise.all(pushed.flushed.map((b) => summariseBatch(ctx, b))),
    Promise.all(s.turns.map(async (t) => Promise.all([extract(t.user), extract(t.assistant)]))),
  ]);
  const visibleFrom = s.seq + 1;
  const entries: BaselineEntry[] = summarised.map(({ event, callKey }) => ({
    kind: "event",
    key: event.key,
    content: event,
    visibleFrom,
    callKeys: [callKey],
  }));
  const newUser: PersonaTrait[] = [];
  const newAgent: PersonaTrait[] = [];
  // A bank's update links to the extraction calls whose traits it holds (a call that found none added nothing).
  const userCalls: string[] = [];
  const agentCalls: string[] = [];
  personas.forEach(([u, a], i) => {
    for (const trait of u.value.traits) newUser.push({ seq: s.seq, turn: i + 1, trait });
    for (const trait of a.value.traits) newAgent.push({ seq: s.seq, turn: i + 1, trait });
    if (u.value.traits.length) userCalls.push(u.callKey);
    if (a.value.traits.length) agentCalls.push(a.callKey);
  });
  if (newUser.length)
    entries.push({ kind: "persona-user", key: `persona-user:${s.seq}`, content: newUser, visibleFrom, callKeys: userCalls });
  if (newAgent.length)
    entries.push({ kind: "persona-assistant", key: `persona-assistant:${s.seq}`, content: newAgent, visibleFrom, callKeys: agentCalls });
  entries.push({ kind: "cache", key: "cache", content: pushed.cache, visibleFrom, callKeys: [] });
  const events = summarised.map((x) => x.event);
  return {
    state: {
      cache: pushed.cache,
      events: [...state.events, ...events],
      userPersona: [...state.userPersona, ...newUser],
      agentPersona: [...state.agentPersona, ...newAgent],
    },
    entries,
  };
}

/** Both phases of one session, in order (what a build does for a session with or without logs). */
export async function ldAgentStep(ctx: LdAgentContext, state: LdAgentState, s: BaselineSession): Promise<StepResult<LdAgentState>> {
  const a = await ldAgentArrival(ctx, state, s.seq, s.at);
  const d = await ldAgentDialogue(ctx, a.state, s);
  return { state: d.state, entries: [...a.entries, ...d.entries] };
}

/** Calls implied: two persona extractions per turn plus one summary per flush the timestamps cause. */
export function ldAgentImpliedCalls(sessions: readonly Pick<BaselineSession, "at" | "turns" | "seq">[], betaMs = DEFAULT_BETA_MS): number {
  let cache: CachedUtterance[] = [];
  let flushes = 0;
  let persona = 0;
  for (const s of sessions) {
    const a = flushOnArrival(cache, s.at, betaMs);
    if (a.flushed) flushes++;
    const us = s.turns.flatMap((t) => [t.user, t.assistant].map((text) => ({ at: s.at, speaker: "user" as const, text, seq: s.seq })));
    const p = pushAll(a.cache, us, betaMs);
    flushes += p.flushed.length;
    cache = p.cache;
    persona += s.turns.length * 2;
  }
  return persona + flushes;
}
