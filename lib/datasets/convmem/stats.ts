import { sql, type SQL } from "drizzle-orm";
import type { Queryable } from "../writer";

/**
 * The counts of a LoCoMo or LongMemEval data set, from the stored rows: threads (conversations or
 * questions), the distinct sessions stored, the sessions the timelines refer to, turns and QA items.
 */
export function convmemStats(db: Queryable, datasetId: number): Record<string, number> {
  const one = (q: SQL) => db.get<{ n: number } | undefined>(q)?.n ?? 0;
  return {
    threads: one(sql`SELECT count(*) AS n FROM cm_threads WHERE dataset_id = ${datasetId}`),
    sessions: one(sql`SELECT count(*) AS n FROM cm_sessions WHERE dataset_id = ${datasetId}`),
    sessionRefs: one(
      sql`SELECT count(*) AS n FROM cm_timeline t JOIN cm_threads h ON h.id = t.thread_id WHERE h.dataset_id = ${datasetId}`,
    ),
    turns: one(sql`SELECT count(*) AS n FROM cm_turns t JOIN cm_sessions s ON s.id = t.session_id WHERE s.dataset_id = ${datasetId}`),
    qa: one(sql`SELECT count(*) AS n FROM cm_qa WHERE dataset_id = ${datasetId}`),
  };
}

/** The counts under each kind's names: LoCoMo's threads are conversations, LongMemEval's questions (each its own haystack). */
export function kindCounts(kind: "locomo" | "longmemeval", c: Record<string, number>): Record<string, number> {
  const { threads, sessionRefs, ...rest } = c;
  return kind === "locomo"
    ? { conversations: threads, ...rest }
    : { questions: threads, sessions: rest.sessions, sessionRefs, turns: rest.turns, qa: rest.qa };
}
