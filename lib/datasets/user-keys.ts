/**
 * A data set's user ids, sorted, for choosing a subset (the New experiment form's checkboxes).
 * Indexed reads of one table per kind, capped: a form lists a few thousand ids at most.
 */
import type { Db } from "@/db/client";

export const USER_KEYS_LIMIT = 5000;

export function datasetUserKeys(db: Db, datasetId: number, limit = USER_KEYS_LIMIT): { users: string[]; total: number } {
  // A data set is of one kind: one of the two tables has its users, the other none.
  const rows = db.$client
    .prepare(
      `SELECT user_key AS k FROM pal_users WHERE dataset_id = @id
       UNION ALL SELECT user_key AS k FROM hc_users WHERE dataset_id = @id
       ORDER BY k LIMIT @limit`,
    )
    .all({ id: datasetId, limit }) as Array<{ k: string }>;
  const total = db.$client
    .prepare("SELECT (SELECT count(*) FROM pal_users WHERE dataset_id = @id) + (SELECT count(*) FROM hc_users WHERE dataset_id = @id) AS n")
    .get({ id: datasetId }) as { n: number };
  return { users: rows.map((r) => r.k), total: total.n };
}
