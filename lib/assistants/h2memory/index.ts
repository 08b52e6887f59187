/**
 * H2Memory behind the Assistant interface: the build phases read the memory as it stands, run the
 * steps (build.ts) and write their entries; answering retrieves per phase (retrieve.ts). The full
 * method and its four ablations differ only in which memory parts they build and retrieve:
 *   - no-background / no-principle: that part is neither built nor retrieved;
 *   - no-graph / no-topic: the part is still built (the background and the rewrites, and the
 *     principles, are made from it) but never retrieved.
 */
import { z } from "zod";
import { answerWithMemory } from "../core/answer";
import type { Assistant, BuildContext, RespondContext, Session, SessionLogs, TaskInput } from "../core/types";
import { dialoguePhase, logsPhase } from "./build";
import { h2memoryEstimate } from "./calls";
import { extractOutlines } from "./topic-outline";
import { buildSessionGraph } from "./situations";
import { queryGenerationPrompt } from "./prompts";
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
  // Part of the memory's settings key: memories clustered under the earlier rule (one start per n) are not reused.
  clusterTries: z.number().int().min(1).max(1000).default(DEFAULT_H2_OPTIONS.clusterTries),
  seed: z.number().int().default(DEFAULT_H2_OPTIONS.seed),
  window: z.number().int().min(1).default(DEFAULT_H2_OPTIONS.window),
});
export type H2AssistantOptions = z.infer<typeof h2Options>;

export const H2_ENTRY_KINDS = ["log_graph", "situation", "background", "topic_outline", "principle"] as const;

type Common = CommonContext<H2AssistantOptions>;
type CommonContext<O> = Pick<BuildContext<O>, "llm" | "options" | "language" | "datasetKind" | "retriever">;

/** The step purposes in the ledger are "<method>.<step>", e.g. "h2memory.log-graph". */
export function services(ctx: Common, method: string): H2Services {
  return {
    lang: ctx.language,
    async chat(prompt, schema) {
      // The log-graph reply holds only log ids and relation names: no text whose language to check.
      const language = prompt.step === "log-graph" ? undefined : ctx.language;
      const r = await ctx.llm.chat({ messages: prompt.messages, schema, language, purpose: `${method}.${prompt.step}` });
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

export function toH2Session(s: SessionLogs & { dialogue?: Session["dialogue"] }): H2Session {
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
export function stateFrom(memory: RespondContext["memory"]): H2State {
  const state = emptyState();
  const bgs = memory.list<BackgroundEntry>("background");
  for (const b of bgs) state.background.background[b.content.aspect] = b.content.text;
  // Listed oldest first: the last one carries the span the background covers so far.
  const latest = bgs.at(-1)?.content;
  if (latest) state.background = { ...state.background, time_span: latest.timeSpan, start: latest.timeSpan.split(" ~ ")[0] || null };
  state.outlines = memory
    .list<TopicOutlineEntry>("topic_outline")
    .map((o) => ({ key: o.key, requirement: o.content.requirement, preference: o.content.preference }));
  const ps = memory.list<PrincipleEntry>("principle").map((p) => p.content);
  state.principles = ps.length ? ps.sort((a, b) => a.cluster - b.cluster) : null;
  return state;
}

function optionsFor(ctx: Common, parts: H2Parts): H2Options {
  return { ...DEFAULT_H2_OPTIONS, ...ctx.options, parts, mode: ctx.datasetKind === "palset" ? "full" : "dialogue-only" };
}

function write(memory: BuildContext["memory"], entries: Array<{ kind: string; key: string; content: unknown }>) {
  memory.putAll(entries.map((e) => ({ kind: e.kind, key: e.key, content: e.content, callKeys: callKeysIn(e.content) })));
}

/**
 * H2Memory knows exactly which call produced each entry (finer than "the calls of this phase"), so
 * it names them; the store keeps them in the same column as every other method's.
 */
export function callKeysIn(content: unknown): string[] {
  const keys = new Set<string>();
  const c = content as { callKey?: unknown; refineCallKey?: unknown; callKeys?: unknown; windows?: unknown } | null;
  for (const k of [c?.callKey, c?.refineCallKey, ...(Array.isArray(c?.callKeys) ? c.callKeys : [])]) if (typeof k === "string") keys.add(k);
  if (Array.isArray(c?.windows))
    for (const w of c.windows as Array<{ callKey?: unknown }>) if (typeof w?.callKey === "string") keys.add(w.callKey);
  return [...keys];
}

/** Requirement-phase inputs: Task 1, and the requirement-prediction turns of a dialogue. */
export function phaseOf(input: TaskInput): Phase {
  if (input.type === "query") return "requirement";
  if (input.type === "dialogue") return /requirement/i.test(input.action) ? "requirement" : "solution";
  return "solution";
}

/**
 * What an answer in the current session retrieves. The dialogue task first asks the model for the
 * requirement the dialogue so far points to (Mem-PAL's query generation) and retrieves with that.
 */
export async function retrieveFor(
  id: string,
  parts: H2Parts,
  ctx: RespondContext<H2AssistantOptions>,
  input: TaskInput,
): Promise<Retrieved> {
  const svc = services(ctx, id);
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
  return retrieve(svc, parts, optionsFor(ctx, parts).k, view, query, phaseOf(input));
}

export function makeH2Memory(
  id: string,
  parts: H2Parts,
  label: string,
  description = "H2Memory (Mem-PAL): log graph → situations, per-aspect background, topic outlines with rewritten requirements, clustered principles; retrieval by phase.",
): Assistant<H2AssistantOptions> {
  return {
    id,
    label,
    description,
    options: h2Options,
    entryKinds: H2_ENTRY_KINDS,
    buildRoles: ["assistant", "embedding"],
    usesRetriever: true,

    async buildLogs(ctx, session) {
      const r = await logsPhase(services(ctx, id), optionsFor(ctx, parts), stateFrom(ctx.memory), toH2Session(session));
      write(ctx.memory, r.entries);
    },

    async buildDialogue(ctx, session) {
      // Situation keys are "<session key>/s<n>" (build.ts): the session's own, not every session's.
      const situations = ctx.memory
        .listPrefixed<SituationEntry>("situation", `${session.key}/`)
        .filter((s) => s.content.session === session.key)
        .map((s) => s.content);
      const r = await dialoguePhase(services(ctx, id), optionsFor(ctx, parts), stateFrom(ctx.memory), toH2Session(session), situations);
      write(ctx.memory, r.entries);
    },

    estimateBuild: (sessions, ctx) => h2memoryEstimate(parts, sessions, ctx),

    // The log graph and its situations read the session's logs alone, outline extraction its
    // dialogue alone: both can run while earlier sessions build.
    async prefetch(ctx, session) {
      const svc = services(ctx, id);
      const opts = optionsFor(ctx, parts);
      const s = toH2Session(session);
      await Promise.all([
        opts.mode === "full" && s.logs.length ? buildSessionGraph(svc, s, opts.window) : null,
        s.turns.length ? extractOutlines(svc, s) : null,
      ]);
    },

    async respond(ctx, input) {
      const r = await retrieveFor(id, parts, ctx, input);
      return answerWithMemory(ctx, id, input, r.text, r.items);
    },
  };
}

const ALL: H2Parts = { graph: true, background: true, topic: true, principle: true };
export const h2memory = makeH2Memory("h2memory", ALL, "H2Memory");
// The paper's ablations (Mem-PAL Table 5): each leaves one level out of retrieval (and its build steps where nothing else needs them).
export const h2memoryNoGraph = makeH2Memory(
  "h2memory-no-graph",
  { ...ALL, graph: false },
  "H2Memory w/o M_G",
  "H2Memory ablation without M_G: no situations are retrieved, so every background aspect is given instead of those the situations point to.",
);
export const h2memoryNoBackground = makeH2Memory(
  "h2memory-no-background",
  { ...ALL, background: false },
  "H2Memory w/o M_B",
  "H2Memory ablation without M_B: the per-aspect background is neither updated nor retrieved; situations, outlines and principles remain.",
);
export const h2memoryNoTopic = makeH2Memory(
  "h2memory-no-topic",
  { ...ALL, topic: false },
  "H2Memory w/o M_T",
  "H2Memory ablation without M_T: no topic outlines are retrieved; the principles closest to the query stand alone.",
);
export const h2memoryNoPrinciple = makeH2Memory(
  "h2memory-no-principle",
  { ...ALL, principle: false },
  "H2Memory w/o M_P",
  "H2Memory ablation without M_P: outlines are not clustered into principles; situations, background and outlines remain.",
);

/** Background aspects as a record, for views. */
export function backgroundRecord(entries: Array<{ content: BackgroundEntry }>): Record<Aspect, string> {
  const bg = Object.fromEntries(ASPECTS.map((a) => [a, ""])) as Record<Aspect, string>;
  for (const e of entries) bg[e.content.aspect] = e.content.text;
  return bg;
}
