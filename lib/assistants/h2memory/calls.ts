/**
 * The model calls H2Memory's construction makes, from the algorithm (build.ts): exactly, after a
 * build, from the entries it stored (the build benchmark), and as bounds before it (the dry run),
 * where the model's answers (components of a log graph, topics of a dialogue, clusters) are not known
 * yet. Both read the same per-session count, so they cannot drift apart.
 *
 * Full mode (PAL-Set), per session: ceil(logs / window) log-graph windows and one situation per
 * component, one background update; one outline call and one rewrite per outline. At the first query
 * session M_P is made: one embedding request and, per cluster, the type then the principle. Each
 * later query dialogue: one embedding request and, per cluster that gained members, a type update
 * then a principle update. (The chain: sessionCalls.)
 * Dialogue-only mode (HiCUPID): per dialogue one outline call and, when it has outlines, the type and
 * the principle of its own principle; nothing else.
 */
import type { ShownEntry } from "@/lib/memory/show";
import type { BuildEstimate, BuildEstimateContext, DatasetKind, Session } from "../core/types";
import type { H2Parts, LogGraphEntry, PrincipleEntry } from "./types";
import { DEFAULT_H2_OPTIONS } from "./types";

/** What the model's answers decided for one session (known after a build; bounded before it). */
type Decided = {
  /** Connected components of the session's log graph (one situation call each). */
  components: number;
  /** Topic outlines of its dialogue (one rewrite each in full mode). */
  outlines: number;
  /** Clusters M_P was made with, at the first query session. */
  made: number;
  /** Clusters that gained members from this query dialogue. */
  gained: number;
};

/**
 * The parts of a build whose requests depend on different settings (the dry run counts a part once
 * when several methods make it with the same requests: BuildEstimate.shared):
 *   read: log-graph windows, situations, outline extraction and the rewrites' dense retrieval (the
 *         session alone and `window`);
 *   background: M_B updates (from the situations);
 *   rewrite: the requirement rewrites (the background, if built, and the k closest situations);
 *   principle: M_P (the rewritten requirements, `clusters`, `seed`).
 */
export const H2_STAGES = ["read", "background", "rewrite", "principle"] as const;
export type H2Stage = (typeof H2_STAGES)[number];

type RoleCalls = { assistant: number; embedding: number };
type Counted = RoleCalls & { end: number; by: Record<H2Stage, RoleCalls> };

const zeroStages = (): Record<H2Stage, RoleCalls> =>
  Object.fromEntries(H2_STAGES.map((s) => [s, { assistant: 0, embedding: 0 }])) as Record<H2Stage, RoleCalls>;

/**
 * One session's calls, and when its build ends (`end`, in calls) given when the previous session's
 * ended (`prev`): the longest path through what must wait for what. A session's log-graph windows,
 * situations (windows → situations: 2 deep) and outline call read that session alone
 * (Assistant.prefetch), so they wait for nothing built before; the background update waits for them
 * and for the previous session; the rewrites wait for the outline and the logs phase; M_P's steps wait
 * for the rewrites (or, at the first query session, run beside the logs phase: 3 deep).
 */
function sessionCalls(
  s: Session,
  parts: H2Parts,
  mode: "full" | "dialogue-only",
  firstQuery: number | undefined,
  window: number,
  d: Decided,
  prev = 0,
) {
  const c: Counted = { assistant: 0, embedding: 0, end: prev, by: zeroStages() };
  const add = (stage: H2Stage, assistant: number, embedding = 0) => {
    c.assistant += assistant;
    c.embedding += embedding;
    c.by[stage].assistant += assistant;
    c.by[stage].embedding += embedding;
  };
  const dialogue = s.dialogue.length ? 1 : 0;
  if (mode === "dialogue-only") {
    const principle = parts.principle && d.outlines ? 2 : 0;
    add("read", dialogue);
    add("principle", principle);
    c.end = Math.max(prev, dialogue) + principle;
    return c;
  }
  const windows = Math.ceil(s.logs.length / window);
  const bg = parts.background && d.components > 0 ? 1 : 0;
  add("read", windows + d.components);
  add("background", bg);
  const graphDone = windows ? (d.components ? 2 : 1) : 0;
  let logsEnd = windows ? Math.max(prev, graphDone) + bg : prev;
  if (parts.principle && s.seq === firstQuery && d.made) {
    add("principle", 2 * d.made, 1);
    logsEnd = Math.max(logsEnd, prev + 3);
  }
  add("read", dialogue);
  add("rewrite", d.outlines);
  let end = Math.max(logsEnd, dialogue) + (d.outlines ? 1 : 0);
  if (parts.principle && firstQuery !== undefined && s.split === "query" && d.outlines) {
    add("principle", 2 * d.gained, 1);
    end += 1 + (d.gained ? 2 : 0);
  }
  c.end = end;
  return c;
}

const firstQueryOf = (sessions: readonly Session[]) => sessions.find((s) => s.split === "query")?.seq;

/** After a build: the calls (chat + embedding requests) and the longest chain its entries imply. */
export function h2memoryPlan(parts: H2Parts, window = DEFAULT_H2_OPTIONS.window, mode: "full" | "dialogue-only" = "full") {
  return (sessions: Session[], entries: ShownEntry[]): { calls: number; chain: number } => {
    let calls = 0;
    let chain = 0;
    const firstQuery = firstQueryOf(sessions);
    const principles = entries.filter((e) => e.kind === "principle");
    for (const s of sessions) {
      const g = entries.find((e) => e.kind === "log_graph" && e.key === s.key)?.content as LogGraphEntry | undefined;
      const d: Decided = {
        components: g?.components.length ?? 0,
        outlines: entries.filter((e) => e.kind === "topic_outline" && e.session === s.key).length,
        made: principles.filter((p) => p.validFromSeq === s.seq).length,
        gained: principles.filter((p) => p.validFromSeq === s.seq + 1 && (p.content as PrincipleEntry).members.length > 0).length,
      };
      const c = sessionCalls(s, parts, mode, firstQuery, window, d, chain);
      calls += c.assistant + c.embedding;
      chain = c.end;
    }
    return { calls, chain };
  };
}

export const h2ModeOf = (kind: DatasetKind): "full" | "dialogue-only" => (kind === "palset" ? "full" : "dialogue-only");

/**
 * What a stage's requests depend on, as a key: two methods (H2Memory and its ablations) whose keys for
 * a stage are equal send the same requests for it, so the second is answered from the cache.
 */
export function h2StageKey(
  stage: H2Stage,
  parts: H2Parts,
  mode: "full" | "dialogue-only",
  o: { k: number; clusters: number; seed: number; window: number },
  retrieverKind: string,
): string {
  if (mode === "dialogue-only")
    return stage === "principle" ? `h2memory:dialogue-only:principle:seed=${o.seed}` : `h2memory:dialogue-only:${stage}`;
  const read = `h2memory:full:read:window=${o.window}:retriever=${retrieverKind}`;
  if (stage === "read") return read;
  if (stage === "background") return `h2memory:full:background:window=${o.window}`;
  // The rewrites read the background (when it is built) and the k closest situations.
  const rewrite = `${read}:rewrite:k=${o.k}:background=${parts.background}`;
  if (stage === "rewrite") return rewrite;
  return `${rewrite}:principle:clusters=${o.clusters}:seed=${o.seed}`;
}

/**
 * Before a build: the fewest and the most calls. Exact: the log-graph windows, one outline call per
 * dialogue, and (at least one component per session with logs) a situation call and a background
 * update. Bounded: situations (at most one per log), rewrites (at most one topic per dialogue turn),
 * the M_P calls (at most `clusters` clusters) and, with the dense retriever, its embedding requests.
 * The same calls split by stage (`shared`), each keyed by what its requests depend on.
 */
export function h2memoryEstimate(
  parts: H2Parts,
  sessions: readonly Session[],
  ctx: BuildEstimateContext<{ k: number; clusters: number; seed: number; window: number }>,
): BuildEstimate {
  const mode = h2ModeOf(ctx.datasetKind);
  const firstQuery = firstQueryOf(sessions);
  // M_P is made from every history outline, whether or not those sessions are still to build.
  const historyTopics = sessions.filter((s) => firstQuery === undefined || s.seq < firstQuery).reduce((n, s) => n + s.dialogue.length, 0);
  const min = { assistant: 0, embedding: 0 };
  const max = { assistant: 0, embedding: 0 };
  const stageMin = zeroStages();
  const stageMax = zeroStages();
  const sum = (into: RoleCalls, c: RoleCalls) => {
    into.assistant += c.assistant;
    into.embedding += c.embedding;
  };
  for (const s of sessions) {
    if (ctx.done.has(s.seq)) continue;
    const logs = s.logs.length;
    const lo = sessionCalls(s, parts, mode, firstQuery, ctx.options.window, {
      components: logs ? 1 : 0,
      outlines: 0,
      made: 0,
      gained: 0,
    });
    const topics = s.dialogue.length;
    const hi = sessionCalls(s, parts, mode, firstQuery, ctx.options.window, {
      components: logs,
      outlines: topics,
      made: Math.min(ctx.options.clusters, historyTopics),
      gained: Math.min(ctx.options.clusters, topics),
    });
    sum(min, lo);
    sum(max, hi);
    for (const st of H2_STAGES) {
      sum(stageMin[st], lo.by[st]);
      sum(stageMax[st], hi.by[st]);
    }
    // A dense retriever embeds the session's situations and each requirement for its rewrite (cached vectors are free).
    if (mode === "full" && ctx.retrieverKind === "dense" && logs) {
      max.embedding += 2 * topics;
      stageMax.read.embedding += 2 * topics;
    }
  }
  const exact = min.assistant === max.assistant && min.embedding === max.embedding;
  // The stages this method's build has (dialogue-only mode has no logs, background or rewrites).
  const built: Record<H2Stage, boolean> = {
    read: true,
    background: mode === "full" && parts.background,
    rewrite: mode === "full",
    principle: parts.principle,
  };
  const shared = H2_STAGES.filter((st) => built[st]).map((st) => ({
    key: h2StageKey(st, parts, mode, ctx.options, ctx.retrieverKind),
    calls: {
      assistant: { min: stageMin[st].assistant, max: stageMax[st].assistant },
      embedding: { min: stageMin[st].embedding, max: stageMax[st].embedding },
    },
  }));
  return {
    calls: { assistant: { min: min.assistant, max: max.assistant }, embedding: { min: min.embedding, max: max.embedding } },
    shared,
    ...(exact
      ? {}
      : {
          note:
            mode === "full"
              ? "exact: log-graph windows, outline calls, at least one situation and one background update per session with logs; " +
                "at most: one situation per log, one rewrite per dialogue turn, M_P calls for every cluster"
              : "exact: one outline call per dialogue; at most: a type and a principle per dialogue with topics",
        }),
  };
}
