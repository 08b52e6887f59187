/**
 * The Items table's text filter over the job_text FTS5 index (migration 0027: each job's title and the
 * text of its output, kept by triggers). A search is scoped to one experiment inside the index (its
 * `exp` column holds "e<id>"), so its cost follows the matches, not the experiment's size.
 */
import { sql, type SQL } from "drizzle-orm";

/** Each word of the text as a prefix term ("rost" finds "roster"), all required; null if it has no word. */
export function ftsQuery(text: string): string | null {
  const words = text.match(/[\p{L}\p{N}]+/gu);
  if (!words?.length) return null;
  return words.map((w) => `"${w}"*`).join(" AND ");
}

/** Jobs of the experiment whose title or replies hold every word of `text`, or that `orElse` keeps (the item key). */
export function textMatch(experimentId: number, text: string, orElse: SQL): SQL {
  const words = ftsQuery(text);
  if (!words) return orElse;
  const match = `exp : "e${experimentId}" AND {title replies} : (${words})`;
  return sql`(id IN (SELECT rowid FROM job_text WHERE job_text MATCH ${match}) OR ${orElse})`;
}
