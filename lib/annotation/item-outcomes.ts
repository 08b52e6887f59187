/**
 * How each item's human labels resolved, per dimension, for the export: unanimous, majority (one label
 * more frequent than every other), adjudicated (a researcher's decision, whatever the votes), unresolved
 * (split with no decision), or unlabelled. Excluded participants and gold items are left out, as in
 * agreement (human-labels.ts).
 */
import type { Db } from "@/db/client";
import { campaignLabels } from "./human-labels";

export type ItemOutcome = "unanimous" | "majority" | "adjudicated" | "unresolved" | "unlabelled";

export function itemOutcomes(db: Db, campaignId: number, dimensions: readonly string[]) {
  const { items } = campaignLabels(db, campaignId);
  return items.flatMap((it) =>
    dimensions.map((dimension) => {
      const votes = Object.values(it.human[dimension] ?? {});
      const adjudicated = it.adjudicated[dimension];
      const counts = new Map<string, number>();
      for (const v of votes) counts.set(v, (counts.get(v) ?? 0) + 1);
      const ranked = [...counts.entries()].sort((a, b) => b[1] - a[1]);
      let outcome: ItemOutcome;
      let value: string | null = null;
      if (adjudicated !== undefined) [outcome, value] = ["adjudicated", adjudicated];
      else if (!votes.length) outcome = "unlabelled";
      else if (ranked.length === 1) [outcome, value] = ["unanimous", ranked[0][0]];
      else if (ranked[0][1] > ranked[1][1]) [outcome, value] = ["majority", ranked[0][0]];
      else outcome = "unresolved";
      return { item: it.externalId, dimension, labels: votes.length, outcome, value };
    }),
  );
}
