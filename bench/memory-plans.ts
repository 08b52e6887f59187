/**
 * What each method's build should cost, derived from the algorithm and the memory it built: the
 * number of model calls (chat + embedding requests) and the longest chain of calls that must wait
 * for one another. The memory benchmark prints these beside what it measured. A method without a
 * plan here is still measured (its ideal then uses the call count alone). One entry per method id.
 */
import type { ShownEntry } from "@/lib/memory/show";
import type { Session } from "@/lib/assistants/core/types";
import { h2memoryPlan } from "@/lib/assistants/h2memory/calls";
import { noCalls, type Planner } from "@/lib/assistants/baselines/calls";
import { recursumPlan } from "@/lib/assistants/recursum/calls";
import { conditionmemPlan } from "@/lib/assistants/conditionmem/calls";
import { memorybankPlan } from "@/lib/assistants/memorybank/calls";
import { ldAgentPlan } from "@/lib/assistants/ld-agent/calls";

export type Plan = { calls: number; chain: number };
export type PlanFn = (sessions: Session[], entries: ShownEntry[]) => Plan;

/** The baselines state their own plans (lib/assistants/<method>/calls.ts) over entry counts by kind. */
const BASELINE_PLANS: Record<string, Planner> = {
  "turn-rag": noCalls,
  "session-rag": noCalls,
  recursum: recursumPlan,
  conditionmem: conditionmemPlan,
  memorybank: memorybankPlan,
  "ld-agent": ldAgentPlan,
};
const baselinePlans: Record<string, PlanFn> = Object.fromEntries(
  Object.entries(BASELINE_PLANS).map(([id, plan]) => [
    id,
    (sessions, entries) => {
      const byKind: Record<string, number> = {};
      for (const e of entries) byKind[e.kind] = (byKind[e.kind] ?? 0) + 1;
      return plan(sessions, byKind);
    },
  ]),
);

const ALL = { graph: true, background: true, topic: true, principle: true };

export const PLANS: Record<string, PlanFn> = {
  ...baselinePlans,
  vanilla: () => ({ calls: 0, chain: 0 }),
  "vanilla-log": () => ({ calls: 0, chain: 0 }),
  h2memory: h2memoryPlan(ALL),
  "h2memory-no-graph": h2memoryPlan(ALL),
  "h2memory-no-topic": h2memoryPlan(ALL),
  "h2memory-no-background": h2memoryPlan({ ...ALL, background: false }),
  "h2memory-no-principle": h2memoryPlan({ ...ALL, principle: false }),
};
