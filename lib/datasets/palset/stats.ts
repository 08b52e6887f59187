/** The counts of a PAL-Set data set (docs/data-formats.md), counted from the stored rows (not from the import's report). */
import { count, eq } from "drizzle-orm";
import { palCandidates, palLogs, palSamples, palTopics, palTurns, palUsers } from "@/db/schema";
import type { Queryable } from "../writer";

export function palsetStats(db: Queryable, datasetId: number): Record<string, number> {
  const n = (q: { get(): { n: number } | undefined }) => q.get()?.n ?? 0;
  const inSet = eq(palSamples.datasetId, datasetId);
  const splits = db.select({ split: palSamples.split, n: count() }).from(palSamples).where(inSet).groupBy(palSamples.split).all();
  const bySplit = Object.fromEntries(splits.map((r) => [r.split, r.n]));
  return {
    users: n(db.select({ n: count() }).from(palUsers).where(eq(palUsers.datasetId, datasetId))),
    samples: (bySplit.history ?? 0) + (bySplit.query ?? 0),
    historySamples: bySplit.history ?? 0,
    querySamples: bySplit.query ?? 0,
    logs: n(db.select({ n: count() }).from(palLogs).innerJoin(palSamples, eq(palLogs.sampleId, palSamples.id)).where(inSet)),
    turns: n(db.select({ n: count() }).from(palTurns).innerJoin(palSamples, eq(palTurns.sampleId, palSamples.id)).where(inSet)),
    topics: n(db.select({ n: count() }).from(palTopics).innerJoin(palSamples, eq(palTopics.sampleId, palSamples.id)).where(inSet)),
    candidateSolutions: n(
      db
        .select({ n: count() })
        .from(palCandidates)
        .innerJoin(palTopics, eq(palCandidates.topicId, palTopics.id))
        .innerJoin(palSamples, eq(palTopics.sampleId, palSamples.id))
        .where(inSet),
    ),
  };
}
