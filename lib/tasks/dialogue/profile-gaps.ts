/**
 * Issue 40 item 14: what the dialogue task's user simulator would lack on a data set imported without
 * Mem-PAL's per-user profile files (background.json with the personality, situation.json) or without the
 * requirement framework (implicit needs with their evidence). Such a run is "bare": the simulator gets no
 * background, personality or situation and needs without evidence. Read once per launch, audit and table
 * caption (a few aggregates over the query topics), never per call.
 */
import type { Db } from "@/db/client";

export type ProfileGaps = {
  /** Query topics the dialogue task would run (of the run's users). */
  topics: number;
  /** Of those, topics whose user has no background (and so no personality), whose session has no situation, without a framework. */
  noBackground: number;
  noSituation: number;
  noEvidence: number;
};

export function profileGaps(db: Db, datasetId: number, users: "all" | readonly string[]): ProfileGaps {
  const only = users === "all" ? "" : `AND u.user_key IN (SELECT value FROM json_each(@users))`;
  const r = db.$client
    .prepare(
      `SELECT count(*) AS topics,
         coalesce(sum(u.background IS NULL OR u.background IN ('null', '{}')), 0) AS noBackground,
         coalesce(sum(s.situation IS NULL OR coalesce(json_extract(s.situation, '$.situation'), '') = ''), 0) AS noSituation,
         coalesce(sum(t.framework IS NULL OR t.framework = 'null'), 0) AS noEvidence
       FROM pal_topics t JOIN pal_samples s ON s.id = t.sample_id JOIN pal_users u ON u.id = s.user_id
       WHERE s.dataset_id = @ds AND s.split = 'query' ${only}`,
    )
    .get({ ds: datasetId, ...(users === "all" ? {} : { users: JSON.stringify(users) }) }) as ProfileGaps;
  return r;
}

/** The warning a launch, the audit and a table caption give, or null when the simulator has its full inputs. */
export function bareSimulatorWarning(g: ProfileGaps): string | null {
  if (!g.topics || (!g.noBackground && !g.noSituation && !g.noEvidence)) return null;
  const parts = [
    g.noBackground ? `no background or personality for ${g.noBackground}` : "",
    g.noSituation ? `no situation for ${g.noSituation}` : "",
    g.noEvidence ? `needs without evidence for ${g.noEvidence}` : "",
  ].filter(Boolean);
  return (
    `the dialogue task's user simulator runs bare (of ${g.topics} topic${g.topics > 1 ? "s" : ""}: ${parts.join("; ")}): ` +
    "the data set lacks Mem-PAL's per-user profile files (background.json, situation.json, requirement_framework.json), " +
    "so its dialogues do not follow the paper's protocol"
  );
}
