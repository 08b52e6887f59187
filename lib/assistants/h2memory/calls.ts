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

type Counted = { assistant: number; embedding: number; end: number };

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
  const c: Counted = { assistant: 0, embedding: 0, end: prev };
  const dialogue = s.dialogue.length ? 1 : 0;
  if (mode === "dialogue-only") {
    const principle = parts.principle && d.outlines ? 2 : 0;
    c.assistant += dialogue + principle;
    c.end = Math.max(prev, dialogue) + principle;
    return c;
  }
  const windows = Math.ceil(s.logs.length / window);
  const bg = parts.background && d.components > 0 ? 1 : 0;
  c.assistant += windows + d.components + bg;
  const graphDone = windows ? (d.components ? 2 : 1) : 0;
  let logsEnd = windows ? Math.max(prev, graphDone) + bg : prev;
  if (parts.principle && s.seq === firstQuery && d.made) {
    c.embedding += 1;
    c.assistant += 2 * d.made;
    logsEnd = Math.max(logsEnd, prev + 3);
  }
  c.assistant += dialogue + d.outlines;
  let end = Math.max(logsEnd, dialogue) + (d.outlines ? 1 : 0);
  if (parts.principle && firstQuery !== undefined && s.split === "query" && d.outlines) {
    c.embedding += 1;
    c.assistant += 2 * d.gained;
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

export const h2ModeOf = (kind: DatasetKind): "full" | "dialogue-only" => (kind === "hicupid" ? "dialogue-only" : "full");

/**
 * Before a build: the fewest and the most calls. Exact: the log-graph windows, one outline call per
 * dialogue, and (at least one component per session with logs) a situation call and a background
 * update. Bounded: situations (at most one per log), rewrites (at most one topic per dialogue turn),
 * the M_P calls (at most `clusters` clusters) and, with the dense retriever, its embedding requests.
 */
export function h2memoryEstimate(
  parts: H2Parts,
  sessions: readonly Session[],
  ctx: BuildEstimateContext<{ clusters: number; window: number }>,
): BuildEstimate {
  const mode = h2ModeOf(ctx.datasetKind);
  const firstQuery = firstQueryOf(sessions);
  // M_P is made from every history outline, whether or not those sessions are still to build.
  const historyTopics = sessions.filter((s) => firstQuery === undefined || s.seq < firstQuery).reduce((n, s) => n + s.dialogue.length, 0);
  const min = { assistant: 0, embedding: 0 };
  const max = { assistant: 0, embedding: 0 };
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
    min.assistant += lo.assistant;
    min.embedding += lo.embedding;
    max.assistant += hi.assistant;
    max.embedding += hi.embedding;
    // A dense retriever embeds the session's situations and each requirement for its rewrite (cached vectors are free).
    if (mode === "full" && ctx.retrieverKind === "dense" && logs) max.embedding += 2 * topics;
  }
  const exact = min.assistant === max.assistant && min.embedding === max.embedding;
  return {
    calls: { assistant: { min: min.assistant, max: max.assistant }, embedding: { min: min.embedding, max: max.embedding } },
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
