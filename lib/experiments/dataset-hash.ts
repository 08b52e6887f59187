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

export function datasetHash(db: Db, datasetId: number, kind: string): string {
  const h = crypto.createHash("sha256");
  for (const [table, where] of kind === "hicupid" ? HICUPID : PALSET) {
    h.update(`\u0000${table}\u0000`);
    // Rows as arrays (no per-row objects), the id columns left out, one hash update per row.
    const stmt = db.$client.prepare(`SELECT * FROM ${table} WHERE ${where} ORDER BY id`).raw(true);
    const cols = stmt.columns().map((c) => c.name);
    const keep = cols.map((k, i) => (k === "id" || k.endsWith("_id") ? -1 : i)).filter((i) => i >= 0);
    for (const row of stmt.iterate(datasetId) as Iterable<unknown[]>) {
      let line = "";
      for (const i of keep) line += `${cols[i]}=${row[i] === null ? "\u0001" : String(row[i])}\u0002`;
      h.update(line + "\n");
    }
  }
  return h.digest("hex");
}
