/**
 * LD-Agent's memory over a user's sessions: the short-term cache of the ongoing conversation,
 * event memory (a summary of each flushed cache with its time and the nouns behind it), and the
 * user's and the assistant's persona banks, extracted utterance by utterance.
 * The flush a session's arrival causes is made of earlier sessions only, so its event is visible
 * to answers in that very session; the session's own utterances and traits are visible from the next.
 */
import type { BaselineEntry, BaselineSession, StepContext, StepResult } from "../baseline-types";
import { speaker, type Lang } from "../history-text";
import { eventSummaryPrompt, eventSummarySchema, personaPrompt, personaSchema } from "./prompts";
import { DEFAULT_BETA_MS, flushOnArrival, pushAll, type CachedUtterance } from "./short-term";

export type LdEvent = { key: string; at: number; summary: string; nouns: string[]; seqs: number[] };
export type PersonaTrait = { seq: number; turn: number; trait: string };

export type LdAgentState = { cache: CachedUtterance[]; events: LdEvent[]; userPersona: PersonaTrait[]; agentPersona: PersonaTrait[] };
export const initialLdAgentState = (): LdAgentState => ({ cache: [], events: [], userPersona: [], agentPersona: [] });

export type NounFn = (text: string, lang: Lang) => string[];
export type LdAgentContext = StepContext & { nouns: NounFn; betaMs?: number };

const line = (lang: Lang, u: CachedUtterance) => `${speaker(lang, u.speaker)}: ${u.text}`;

export async function ldAgentStep(ctx: LdAgentContext, state: LdAgentState, s: BaselineSession): Promise<StepResult<LdAgentState>> {
  const beta = ctx.betaMs ?? DEFAULT_BETA_MS;
  const arrival = flushOnArrival(state.cache, s.at, beta);
  const utterances: CachedUtterance[] = s.turns.flatMap((t) => [
    { at: s.at, speaker: "user" as const, text: t.user, seq: s.seq },
    { at: s.at, speaker: "assistant" as const, text: t.assistant, seq: s.seq },
  ]);
  // Utterances of one session share its timestamp, so this only flushes if a caller gives finer times.
  const pushed = pushAll(arrival.cache, utterances, beta);
  const batches = [...(arrival.flushed ? [{ batch: arrival.flushed, visibleFrom: s.seq }] : []), ...pushed.flushed.map((b) => ({ batch: b, visibleFrom: s.seq + 1 }))];

  const summarise = async ({ batch, visibleFrom }: { batch: CachedUtterance[]; visibleFrom: number }) => {
    const lines = batch.map((u) => line(ctx.lang, u));
    const { summary } = await ctx.chat({ purpose: "ld-agent.event-summary", prose: true, messages: eventSummaryPrompt(ctx.lang, lines), schema: eventSummarySchema });
    const last = batch[batch.length - 1];
    const seqs = [...new Set(batch.map((u) => u.seq))];
    const event: LdEvent = { key: `event:${seqs.join("-")}`, at: last.at, summary, nouns: ctx.nouns(lines.join("\n"), ctx.lang), seqs };
    return { event, visibleFrom };
  };
  const extract = (text: string) => ctx.chat({ purpose: "ld-agent.persona", messages: personaPrompt(ctx.lang, text), schema: personaSchema });

  const [events, personas] = await Promise.all([
    Promise.all(batches.map(summarise)),
    Promise.all(s.turns.map(async (t) => Promise.all([extract(t.user), extract(t.assistant)]))),
  ]);

  const entries: BaselineEntry[] = events.map(({ event, visibleFrom }) => ({ kind: "event", key: event.key, content: event, visibleFrom }));
  const userPersona = [...state.userPersona];
  const agentPersona = [...state.agentPersona];
  personas.forEach(([u, a], i) => {
    for (const trait of u.traits) userPersona.push({ seq: s.seq, turn: i + 1, trait });
    for (const trait of a.traits) agentPersona.push({ seq: s.seq, turn: i + 1, trait });
  });
  const newUser = userPersona.slice(state.userPersona.length);
  const newAgent = agentPersona.slice(state.agentPersona.length);
  if (newUser.length) entries.push({ kind: "persona-user", key: `persona-user:${s.seq}`, content: newUser, visibleFrom: s.seq + 1 });
  if (newAgent.length) entries.push({ kind: "persona-assistant", key: `persona-assistant:${s.seq}`, content: newAgent, visibleFrom: s.seq + 1 });
  return { state: { cache: pushed.cache, events: [...state.events, ...events.map((e) => e.event)], userPersona, agentPersona }, entries };
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
