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
 * H2Memory, per session: ceil(logs / 10) log-graph windows and one situation per component
 * (concurrent, chain 2), one background update (chain +1); one outline call (prefetched beside the
 * logs phase) and one rewrite per outline (chain +1). At the first query session M_P is made: one embedding request and, per
 * cluster, the type then the principle (chain 3, beside the logs phase). Each later query
 * dialogue: one embedding request and, per cluster that gained members, a type update then a
 * principle update (chain 3).
 */
function h2memoryPlan(parts: Parts): PlanFn {
  return (sessions, entries) => {
    let calls = 0;
    let chain = 0;
    const firstQuery = sessions.find((s) => s.split === "query")?.seq;
    for (const s of sessions) {
      const g = entries.find((e) => e.kind === "log_graph" && e.key === s.key)?.content as LogGraphEntry | undefined;
      const windows = Math.ceil(s.logs.length / 10);
      const components = g?.components.length ?? 0;
      const bg = parts.background && components > 0 ? 1 : 0;
      let logsChain = windows ? 2 + bg : 0;
      calls += windows + components + bg;
      const principles = entries.filter((e) => e.kind === "principle");
      if (parts.principle && s.seq === firstQuery) {
        const made = principles.filter((p) => p.validFromSeq === s.seq).length;
        if (made) {
          calls += 1 + 2 * made;
          logsChain = Math.max(logsChain, 3);
        }
      }
      const outlines = entries.filter((e) => e.kind === "topic_outline" && e.session === s.key).length;
      const dialogue = s.dialogue.length ? 1 : 0;
      calls += dialogue + outlines;
      // The outline call is prefetched beside the logs phase (prefetchDialogue): only the rewrites wait.
      logsChain = Math.max(logsChain, dialogue);
      let dialogueChain = outlines ? 1 : 0;
      if (parts.principle && firstQuery !== undefined && s.split === "query" && outlines) {
        const gained = principles.filter((p) => p.validFromSeq === s.seq + 1 && (p.content as PrincipleEntry).members.length > 0).length;
        calls += 1 + 2 * gained;
        dialogueChain += 1 + (gained ? 2 : 0);
      }
      chain += logsChain + dialogueChain;
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
