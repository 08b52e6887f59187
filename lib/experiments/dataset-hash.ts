/**
 * Content hash of a data set: sha256 over its rows, table by table in id order, without row ids (an
 * identical re-import hashes the same). Recorded when an experiment is created and checked on resume.
 */
import crypto from "node:crypto";
import type { Db } from "@/db/client";

const PALSET: Array<[string, string]> = [
  ["pal_users", "dataset_id = ?"],
  ["pal_requirement_types", "user_id IN (SELECT id FROM pal_users WHERE dataset_id = ?)"],
  ["pal_samples", "dataset_id = ?"],
  ["pal_logs", "sample_id IN (SELECT id FROM pal_samples WHERE dataset_id = ?)"],
  ["pal_turns", "sample_id IN (SELECT id FROM pal_samples WHERE dataset_id = ?)"],
  ["pal_topics", "sample_id IN (SELECT id FROM pal_samples WHERE dataset_id = ?)"],
  ["pal_candidates", "topic_id IN (SELECT t.id FROM pal_topics t JOIN pal_samples s ON s.id = t.sample_id WHERE s.dataset_id = ?)"],
];
const HICUPID: Array<[string, string]> = [
  ["hc_users", "dataset_id = ?"],
  ["hc_dialogues", "dataset_id = ?"],
  ["hc_turns", "dialogue_id IN (SELECT id FROM hc_dialogues WHERE dataset_id = ?)"],
  ["hc_qa", "dataset_id = ?"],
];

const CONVMEM: Array<[string, string]> = [
  ["cm_threads", "dataset_id = ?"],
  ["cm_sessions", "dataset_id = ?"],
  ["cm_turns", "session_id IN (SELECT id FROM cm_sessions WHERE dataset_id = ?)"],
  ["cm_timeline", "thread_id IN (SELECT id FROM cm_threads WHERE dataset_id = ?)"],
  ["cm_qa", "dataset_id = ?"],
];
const tablesOf = (kind: string) => (kind === "hicupid" ? HICUPID : kind === "locomo" || kind === "longmemeval" ? CONVMEM : PALSET);

/** One row as hashed: its columns but the ids, in order. */
function rowLine(cols: string[], keep: number[], row: unknown[]): string {
  let line = "";
  for (const i of keep) line += `${cols[i]}=${row[i] === null ? "\u0001" : String(row[i])}\u0002`;
  return line + "\n";
}

function kept(cols: string[]): number[] {
  return cols.map((k, i) => (k === "id" || k.endsWith("_id") ? -1 : i)).filter((i) => i >= 0);
}

export function datasetHash(db: Db, datasetId: number, kind: string): string {
  const h = crypto.createHash("sha256");
  for (const [table, where] of tablesOf(kind)) {
    h.update(`\u0000${table}\u0000`);
    // Rows as arrays (no per-row objects), the id columns left out, one hash update per row.
    const stmt = db.$client.prepare(`SELECT * FROM ${table} WHERE ${where} ORDER BY id`).raw(true);
    const cols = stmt.columns().map((c) => c.name);
    const keep = kept(cols);
    for (const row of stmt.iterate(datasetId) as Iterable<unknown[]>) h.update(rowLine(cols, keep, row));
  }
  return h.digest("hex");
}

/**
 * The same hash, read in pages of `page` rows with `pause()` between them, so a server computing it
 * (the experiments preparer) keeps answering. Equal to datasetHash for the same rows.
 */
export async function datasetHashInPages(
  db: Db,
  datasetId: number,
  kind: string,
  pause: () => Promise<void>,
  page = 5000,
): Promise<string> {
  const h = crypto.createHash("sha256");
  for (const [table, where] of tablesOf(kind)) {
    h.update(`\u0000${table}\u0000`);
    const stmt = db.$client.prepare(`SELECT * FROM ${table} WHERE (${where}) AND id > ? ORDER BY id LIMIT ?`).raw(true);
    const cols = stmt.columns().map((c) => c.name);
    const keep = kept(cols);
    const idAt = cols.indexOf("id");
    for (let after = 0; ;) {
      const rows = stmt.all(datasetId, after, page) as unknown[][];
      for (const row of rows) h.update(rowLine(cols, keep, row));
      if (rows.length < page) break;
      after = rows[rows.length - 1][idAt] as number;
      await pause();
    }
  }
  return h.digest("hex");
}
