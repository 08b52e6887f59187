/**
 * What each method's build should cost, derived from the algorithm and the memory it built: the
 * number of model calls (chat + embedding requests) and the longest chain of calls that must wait
 * for one another. The memory benchmark prints these beside what it measured. A method without a
 * plan here is still measured (its ideal then uses the call count alone). One entry per method id.
 */
import type { ShownEntry } from "@/lib/memory/show";
import type { Session } from "@/lib/assistants/types";
import type { LogGraphEntry, PrincipleEntry } from "@/lib/assistants/h2memory/types";
import { BASELINE_CALL_PLANS } from "@/lib/assistants/baseline-calls";

export type Plan = { calls: number; chain: number };
export type PlanFn = (sessions: Session[], entries: ShownEntry[]) => Plan;

type Parts = { background: boolean; principle: boolean };

/**
 * H2Memory, per session: ceil(logs / 10) log-graph windows and one situation per component, one
 * background update; one outline call and one rewrite per outline. At the first query session M_P
 * is made: one embedding request and, per cluster, the type then the principle. Each later query
 * dialogue: one embedding request and, per cluster that gained members, a type update then a
 * principle update.
 * The chain is the longest path through what must wait for what. A session's windows, situations
 * (windows → situations: 2 deep) and outline call read that session alone (Assistant.prefetch), so
 * they wait for nothing built before; the background update waits for them and for the previous
 * session's build; the rewrites wait for the outline and the logs phase; M_P's steps wait for the
 * rewrites (or, at the first query session, run beside the logs phase: 3 deep).
 */
function h2memoryPlan(parts: Parts): PlanFn {
  return (sessions, entries) => {
    let calls = 0;
    let chain = 0; // when the previous session's build ends, in calls
    const firstQuery = sessions.find((s) => s.split === "query")?.seq;
    const principles = entries.filter((e) => e.kind === "principle");
    for (const s of sessions) {
      const g = entries.find((e) => e.kind === "log_graph" && e.key === s.key)?.content as LogGraphEntry | undefined;
      const windows = Math.ceil(s.logs.length / 10);
      const components = g?.components.length ?? 0;
      const bg = parts.background && components > 0 ? 1 : 0;
      calls += windows + components + bg;
      const graphDone = windows ? (components ? 2 : 1) : 0;
      let logsEnd = windows ? Math.max(chain, graphDone) + bg : chain;
      if (parts.principle && s.seq === firstQuery) {
        const made = principles.filter((p) => p.validFromSeq === s.seq).length;
        if (made) {
          calls += 1 + 2 * made;
          logsEnd = Math.max(logsEnd, chain + 3);
        }
      }
      const outlines = entries.filter((e) => e.kind === "topic_outline" && e.session === s.key).length;
      const dialogue = s.dialogue.length ? 1 : 0;
      calls += dialogue + outlines;
      let end = outlines ? Math.max(logsEnd, dialogue) + 1 : Math.max(logsEnd, dialogue);
      if (parts.principle && firstQuery !== undefined && s.split === "query" && outlines) {
        const gained = principles.filter((p) => p.validFromSeq === s.seq + 1 && (p.content as PrincipleEntry).members.length > 0).length;
        calls += 1 + 2 * gained;
        end += 1 + (gained ? 2 : 0);
      }
      chain = end;
    }
    return { calls, chain };
  };
}

/** The baselines state their own plans (lib/assistants/baseline-calls.ts) over entry counts by kind. */
const baselinePlans: Record<string, PlanFn> = Object.fromEntries(
  Object.entries(BASELINE_CALL_PLANS).map(([id, plan]) => [
    id,
    (sessions, entries) => {
      const byKind: Record<string, number> = {};
      for (const e of entries) byKind[e.kind] = (byKind[e.kind] ?? 0) + 1;
      return plan(sessions, byKind);
    },
  ]),
);

export const PLANS: Record<string, PlanFn> = {
  ...baselinePlans,
  vanilla: () => ({ calls: 0, chain: 0 }),
  "vanilla-log": () => ({ calls: 0, chain: 0 }),
  h2memory: h2memoryPlan({ background: true, principle: true }),
  "h2memory-no-graph": h2memoryPlan({ background: true, principle: true }),
  "h2memory-no-topic": h2memoryPlan({ background: true, principle: true }),
  "h2memory-no-background": h2memoryPlan({ background: false, principle: true }),
  "h2memory-no-principle": h2memoryPlan({ background: true, principle: false }),
};
