/**
 * The Items table's text filter over the job_text FTS5 index (migration 0032: each job's title and the
 * text of its output, kept by triggers). Trigram tokens, because PAL-Set is Chinese, written without
 * spaces: a word is found as a substring (case-insensitive) of the title or the replies. A search is scoped
 * to one experiment inside the index (its `exp` column holds "<e<id>>"), so its cost follows the matches,
 * not the experiment's size. A word of fewer than 3 characters is too short for trigrams: it is matched
 * in the titles only, from the jobs_title index (no job row is read).
 */
import { sql, type SQL } from "drizzle-orm";
import { containsText } from "@/lib/paging";

/** The search's words (split on spaces and punctuation), those the index can find and the short ones. */
export function searchWords(text: string): { long: string[]; short: string[] } {
  const words = text.match(/[\p{L}\p{N}\p{M}'’_-]+/gu) ?? [];
  return { long: words.filter((w) => [...w].length >= 3), short: words.filter((w) => [...w].length < 3) };
}

/** The FTS5 query of the long words, all required, in the title or the replies of one experiment; null if none. */
export function ftsQuery(experimentId: number, words: string[]): string | null {
  if (!words.length) return null;
  return `exp : "<e${experimentId}>" AND {title replies} : (${words.map((w) => `"${w.replace(/"/g, '""')}"`).join(" AND ")})`;
}

/** Jobs of the experiment whose title or replies hold every word of `text`, or that `orElse` keeps (the item key). */
export function textMatch(experimentId: number, text: string, orElse: SQL): SQL {
  const { long, short } = searchWords(text);
  if (!long.length && !short.length) return orElse;
  const parts: SQL[] = [];
  const match = ftsQuery(experimentId, long);
  if (match) parts.push(sql`id IN (SELECT rowid FROM job_text WHERE job_text MATCH ${match})`);
  for (const w of short) parts.push(containsText(sql.raw("title"), w));
  return sql`((${sql.join(parts, sql` AND `)}) OR ${orElse})`;
}
