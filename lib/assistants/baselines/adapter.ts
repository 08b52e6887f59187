/**
 * Glue between the baselines' build steps and the Assistant interface: sessions in the baselines'
 * shape, the model call through the one client, the shared log store and log context, and the
 * final answer with the method's context sections.
 */
import type { BaselineEntry, BaselineSession, ChatFn, MakeIndex } from "./types";
import { answerWithMemory } from "../core/answer";
import { logSections, renderContext, type ContextSection } from "./context-sections";
import { sharedLogContext, type HistoryLog, type LogContext } from "./log-context";
import type { BuildContext, RespondContext, RespondResult, Session, SessionLogs, TaskInput } from "../core/types";

const DAY = 86_400_000;

/**
 * A session's time in epoch ms. PAL-Set: its dialogue timestamp (no zone; read as UTC, like the
 * importer). HiCUPID has none: its dialogues are placed one day apart in history order, so time
 * decay and LD-Agent's β still see them as separate conversations.
 */
export function sessionTime(s: { seq: number; timestamp: string | null }): number {
  if (s.timestamp) {
    const m = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2}))?)?/.exec(s.timestamp.trim());
    if (m) return Date.UTC(+m[1], +m[2] - 1, +m[3], +(m[4] ?? 0), +(m[5] ?? 0), +(m[6] ?? 0));
  }
  return s.seq * DAY;
}

export function toBaselineSession(s: Session | SessionLogs): BaselineSession {
  return {
    seq: s.seq,
    sampleKey: s.key,
    at: sessionTime(s),
    date: s.timestamp ?? `#${s.seq + 1}`,
    logs: s.logs,
    turns: "dialogue" in s ? s.dialogue.map((t) => ({ user: t.user, assistant: t.assistant })) : [],
  };
}

type AnyCtx = BuildContext<unknown> | RespondContext<unknown> | Omit<BuildContext<unknown>, "memory">;

/** Every baseline call goes to the assistant role through the one model client. */
export function chatOf(ctx: AnyCtx): ChatFn {
  return async (c) => {
    const r = await ctx.llm.chat({
      role: "assistant",
      messages: c.messages,
      schema: c.schema,
      language: c.prose ? ctx.language : undefined,
      purpose: c.purpose,
    });
    // The key goes back to the engine, which attaches it to exactly the entries made from this reply.
    return { value: r.value, callKey: r.cacheKey };
  };
}

export const indexOf = (ctx: AnyCtx): MakeIndex => (() => ctx.retriever()) as unknown as MakeIndex;

/** Writes a step's entries with the calls each was made from (the phase decides from which session they are visible). */
export function putEntries(ctx: BuildContext<unknown>, entries: readonly BaselineEntry[]): void {
  ctx.memory.putAll(entries);
}

/** Phase 1 for every log-using baseline: keep the session's logs for later top-k retrieval. No call. */
export function storeLogs(ctx: BuildContext<unknown>, s: SessionLogs): void {
  ctx.memory.putMany<HistoryLog>(
    "log",
    s.logs.map((l, i) => ({ key: `${s.key}#${i}`, content: { ...l, seq: s.seq, position: i } })),
  );
}

/** What a baseline retrieves with for each task input. */
export function retrievalQuery(input: TaskInput): string {
  switch (input.type) {
    case "query":
      return input.query;
    case "requirement":
    case "selection":
      return input.requirement;
    case "dialogue":
      return input.turns.map((t) => t.user).join("\n");
    case "question":
      return input.question;
  }
}

export async function logContextOf(ctx: RespondContext<unknown>, k: number, query: string): Promise<LogContext> {
  const history = ctx.memory.list<HistoryLog>("log").map((e) => e.content);
  return sharedLogContext(indexOf(ctx), k, query, ctx.current.seq, history, ctx.current.logs);
}

/** Answers with the shared log sections followed by the method's own sections. */
export async function answerWithSections(
  ctx: RespondContext<unknown>,
  method: string,
  input: TaskInput,
  logs: LogContext | null,
  sections: ContextSection[],
  retrievedExtra: RespondResult["retrieved"],
): Promise<RespondResult> {
  const all = [...(logs ? logSections(ctx.language, logs) : []), ...sections];
  const retrieved = [
    ...(logs?.retrieved ?? []).map((l) => ({ kind: "log", key: `${l.seq}#${l.position}`, text: `[${l.timestamp}] ${l.content}` })),
    ...retrievedExtra,
  ];
  return answerWithMemory(ctx, method, input, renderContext(all), retrieved);
}
