/**
 * Memory builds that make the same requests: H2Memory's ablations re-make H2Memory's log graphs,
 * situations, background and outlines with the very same prompts, and the model client answers the
 * second from its cache (the cache key is the request, not the method). The dry run counts each such
 * part once per user, so the estimate of a full reproduction is not twice its cost.
 */
import type { CallRange } from "@/lib/assistants/core/types";

export type SharedBuildPart = { userKey: string; key: string; calls: Partial<Record<string, CallRange>> };

export type BuildSaving = {
  /** Calls of this build answered from another build's requests (to subtract from its estimate). */
  saved: Record<string, CallRange>;
  /** The builds that pay for them, in config order. */
  paidBy: string[];
};

const size = (c: SharedBuildPart["calls"]) => Object.values(c).reduce((n, r) => n + (r?.max ?? 0), 0);

/**
 * For each user and part key made by several builds, the build that pays for it is the one with the
 * fewest calls left for it (a build already complete for the user has none: its replies are cached),
 * the first in config order on a tie; every other build saves its calls of that part.
 */
export function sharedBuildSavings(builds: ReadonlyArray<{ method: string; shared: readonly SharedBuildPart[] }>): BuildSaving[] {
  const out: BuildSaving[] = builds.map(() => ({ saved: {}, paidBy: [] }));
  const payers = builds.map(() => new Set<number>());
  const byPart = new Map<string, Array<{ build: number; part: SharedBuildPart }>>();
  builds.forEach((b, build) => {
    for (const part of b.shared) {
      const id = `${part.userKey}\u0000${part.key}`;
      byPart.set(id, [...(byPart.get(id) ?? []), { build, part }]);
    }
  });
  for (const makers of byPart.values()) {
    if (makers.length < 2) continue;
    // reduce keeps the earlier maker on a tie (strictly fewer calls replaces it).
    const payer = makers.reduce((best, m) => (size(m.part.calls) < size(best.part.calls) ? m : best));
    for (const m of makers) {
      if (m === payer) continue;
      const s = out[m.build];
      for (const [role, r] of Object.entries(m.part.calls)) {
        if (!r) continue;
        const acc = (s.saved[role] ??= { min: 0, max: 0 });
        acc.min += r.min;
        acc.max += r.max;
      }
      payers[m.build].add(payer.build);
    }
  }
  out.forEach((s, i) => (s.paidBy = [...payers[i]].sort((a, b) => a - b).map((j) => builds[j].method)));
  return out;
}
