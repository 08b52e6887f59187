/**
 * H2Memory behind the Assistant interface: the build phases read the memory as it stands, run the
 * steps (build.ts) and write their entries; answering retrieves per phase (retrieve.ts). The full
 * method and its four ablations differ only in which memory parts they build and retrieve:
 *   - no-background / no-principle: that part is neither built nor retrieved;
 *   - no-graph / no-topic: the part is still built (the background and the rewrites, and the
 *     principles, are made from it) but never retrieved.
 */
import { z } from "zod";
import { dialoguePhase, logsPhase } from "./build";
import { queryGenerationPrompt, type Prompt } from "./prompts";
import { retrieve, type H2View, type Phase, type Retrieved } from "./retrieve";
import { ASPECTS, queryGenerationOutput, type Aspect } from "./schemas";
import {
  DEFAULT_H2_OPTIONS,
  emptyState,
  type BackgroundEntry,
  type H2Options,
  type H2Parts,
  type H2Services,
  type H2Session,
  type H2State,
  type PrincipleEntry,
  type SituationEntry,
  type TopicOutlineEntry,
} from "./types";

export const h2Options = z.object({
  k: z.number().int().min(1).default(DEFAULT_H2_OPTIONS.k),
  clusters: z.number().int().min(1).default(DEFAULT_H2_OPTIONS.clusters),
  seed: z.number().int().default(DEFAULT_H2_OPTIONS.seed),
  window: z.number().int().min(1).default(DEFAULT_H2_OPTIONS.window),
});
export type H2AssistantOptions = z.infer<typeof h2Options>;

export const H2_ENTRY_KINDS = ["log_graph", "situation", "background", "topic_outline", "principle"] as const;

// The slice of the shared assistant context H2Memory uses (structurally the Assistant interface's).
type Entry<C = unknown> = { key: string; content: C; validFromSeq: number };
type Reader = { list<C = unknown>(kind?: string): Entry<C>[] };
type Writer = Reader & { put<C>(kind: string, key: string, content: C): unknown };
type LlmLike = {
  chat<T>(o: { messages: Prompt["messages"]; schema: z.ZodType<T>; language: "zh" | "en"; purpose: string }): Promise<{ value: T; cacheKey: string; cacheHit: boolean }>;
  embed(texts: string[], o: { purpose: string }): Promise<number[][]>;
};
type RetrieverLike = {
  add(docs: Array<{ id: string; text: string }>): Promise<void>;
  search(query: string, k?: number): Promise<Array<{ id: string }>>;
};
type Common = {
  llm: LlmLike;
  options: H2AssistantOptions;
  language: "zh" | "en";
  datasetKind: "palset" | "hicupid";
  retriever: () => RetrieverLike;
};
export type H2BuildContext = Common & { memory: Writer; seq: number };
export type H2RespondContext = Common & { memory: Reader; current: { seq: number; key: string } };
export type SharedSession = {
  seq: number;
  key: string;
  split: string;
  timestamp: string | null;
  logs: Array<{ timestamp: string; content: string }>;
  dialogue?: Array<{ user: string; assistant: string }>;
};

/** The step purposes in the ledger are "<method>.<step>", e.g. "h2memory.log-graph". */
export function services(ctx: Common, method: string, counter?: { calls: number }): H2Services {
  return {
    lang: ctx.language,
    async chat(prompt, schema) {
      if (counter) counter.calls++;
      const r = await ctx.llm.chat({ messages: prompt.messages, schema, language: ctx.language, purpose: `${method}.${prompt.step}` });
      return { value: r.value, callKey: r.cacheKey };
    },
    embed: (texts) => ctx.llm.embed(texts, { purpose: `${method}.requirement-features` }),
    async topK(docs, query, k) {
      if (docs.length === 0) return [];
      const r = ctx.retriever();
      await r.add(docs);
      return (await r.search(query, k)).map((h) => h.id);
    },
  };
}

export function toH2Session(s: SharedSession): H2Session {
  return {
    seq: s.seq,
    key: s.key,
    split: s.split === "query" ? "query" : "history",
    timestamp: s.timestamp ?? "",
    logs: s.logs,
    turns: (s.dialogue ?? []).map((t, i) => ({ key: `turn_${i + 1}`, user: t.user, assistant: t.assistant })),
  };
}

/** The state a phase starts from, read back from the memory (so a crashed build resumes). */
export function stateFrom(memory: Reader): H2State {
  const state = emptyState();
  const bgs = memory.list<BackgroundEntry>("background");
  for (const b of bgs) state.background.background[b.content.aspect] = b.content.text;
  // Listed oldest first: the last one carries the span the background covers so far.
  const latest = bgs.at(-1)?.content;
  if (latest) state.background = { ...state.background, time_span: latest.timeSpan, start: latest.timeSpan.split(" ~ ")[0] || null };
  state.outlines = memory.list<TopicOutlineEntry>("topic_outline").map((o) => ({ key: o.key, requirement: o.content.requirement, preference: o.content.preference }));
  const ps = memory.list<PrincipleEntry>("principle").map((p) => p.content);
  state.principles = ps.length ? ps.sort((a, b) => a.cluster - b.cluster) : null;
  return state;
}

function optionsFor(ctx: Common, parts: H2Parts): H2Options {
  return { ...DEFAULT_H2_OPTIONS, ...ctx.options, parts, mode: ctx.datasetKind === "hicupid" ? "dialogue-only" : "full" };
}

function write(memory: Writer, entries: Array<{ kind: string; key: string; content: unknown }>) {
  for (const e of entries) memory.put(e.kind, e.key, e.content);
}

export type H2TaskInput =
  | { type: "query"; query: string }
  | { type: "requirement"; requirement: string }
  | { type: "selection"; requirement: string; candidates: Array<{ id: string; solution: string }> }
  | { type: "dialogue"; turns: Array<{ user: string; assistant?: string }>; action: string }
  | { type: "question"; question: string };

/** Requirement-phase inputs: Task 1, and the requirement-prediction turns of a dialogue. */
export function phaseOf(input: H2TaskInput): Phase {
  if (input.type === "query") return "requirement";
  if (input.type === "dialogue") return /requirement/i.test(input.action) ? "requirement" : "solution";
  return "solution";
}

export function makeH2Memory(id: string, parts: H2Parts, label: string) {
  return {
    id,
    label,
    description:
      "H2Memory (Mem-PAL): log graph → situations, per-aspect background, topic outlines with rewritten requirements, clustered principles; retrieval by phase.",
    options: h2Options,
    entryKinds: H2_ENTRY_KINDS,
    buildRoles: ["assistant", "embedding"] as const,
    usesRetriever: true,

    async buildLogs(ctx: H2BuildContext, session: SharedSession): Promise<void> {
      const r = await logsPhase(services(ctx, id), optionsFor(ctx, parts), stateFrom(ctx.memory), toH2Session(session));
      write(ctx.memory, r.entries);
    },

    async buildDialogue(ctx: H2BuildContext, session: SharedSession): Promise<void> {
      const situations = ctx.memory
        .list<SituationEntry>("situation")
        .filter((s) => s.content.session === session.key)
        .map((s) => s.content);
      const r = await dialoguePhase(services(ctx, id), optionsFor(ctx, parts), stateFrom(ctx.memory), toH2Session(session), situations);
      write(ctx.memory, r.entries);
    },

    /** What an answer in the current session retrieves, and the calls it took (the dialogue query). */
    async retrieveFor(ctx: H2RespondContext, input: H2TaskInput): Promise<{ retrieved: Retrieved; calls: number }> {
      const counter = { calls: 0 };
      const svc = services(ctx, id, counter);
      let query: string;
      if (input.type === "query") query = input.query;
      else if (input.type === "question") query = input.question;
      else if (input.type === "dialogue") {
        const context = input.turns.flatMap((t) => [
          { role: "user" as const, content: t.user },
          ...(t.assistant ? [{ role: "assistant" as const, content: t.assistant }] : []),
        ]);
        query = (await svc.chat(queryGenerationPrompt(ctx.language, context), queryGenerationOutput)).value.requirement;
      } else query = input.requirement;
      const view: H2View = {
        session: ctx.current.key,
        situations: ctx.memory.list<SituationEntry>("situation"),
        background: ctx.memory.list<BackgroundEntry>("background"),
        outlines: ctx.memory.list<TopicOutlineEntry>("topic_outline"),
        principles: ctx.memory.list<PrincipleEntry>("principle"),
      };
      const retrieved = await retrieve(svc, parts, optionsFor(ctx, parts).k, view, query, phaseOf(input));
      return { retrieved, calls: counter.calls };
    },
  };
}

const ALL: H2Parts = { graph: true, background: true, topic: true, principle: true };
export const h2memory = makeH2Memory("h2memory", ALL, "H2Memory");
export const h2memoryNoGraph = makeH2Memory("h2memory-no-graph", { ...ALL, graph: false }, "H2Memory w/o M_G");
export const h2memoryNoBackground = makeH2Memory("h2memory-no-background", { ...ALL, background: false }, "H2Memory w/o M_B");
export const h2memoryNoTopic = makeH2Memory("h2memory-no-topic", { ...ALL, topic: false }, "H2Memory w/o M_T");
export const h2memoryNoPrinciple = makeH2Memory("h2memory-no-principle", { ...ALL, principle: false }, "H2Memory w/o M_P");

/** Background aspects as a record, for views. */
export function backgroundRecord(entries: Array<{ content: BackgroundEntry }>): Record<Aspect, string> {
  const bg = Object.fromEntries(ASPECTS.map((a) => [a, ""])) as Record<Aspect, string>;
  for (const e of entries) bg[e.content.aspect] = e.content.text;
  return bg;
}
