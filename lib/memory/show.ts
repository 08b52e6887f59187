import type { Db } from "@/db/client";

export type ShownEntry = {
  kind: string;
  key: string;
  content: unknown;
  /** The session whose build step wrote the entry. */
  session: string;
  validFromSeq: number;
  validToSeq: number | null;
  /** Cache keys of the model calls that produced it (links to the ledger); [] when none did. */
  callKeys: string[];
};

/**
 * The stored entries of a memory version in a stable order (kind, key, valid_from_seq, id). With
 * `at`, only those visible for an answer in session `at`.
 */
export function showMemory(db: Db, versionId: number, at?: number): ShownEntry[] {
  const rows = db.$client
    .prepare(
      `select e.kind, e.key, e.content, s.session_key as session, e.valid_from_seq as validFromSeq, e.valid_to_seq as validToSeq, e.call_keys as callKeys
       from memory_entries e join memory_steps s on s.id = e.step_id
       where e.version_id = ? ${at === undefined ? "" : "and e.valid_from_seq <= @at and (e.valid_to_seq is null or e.valid_to_seq > @at)"}
       order by e.kind, e.key, e.valid_from_seq, e.id`.replace(/@at/g, "?"),
    )
    .all(...(at === undefined ? [versionId] : [versionId, at, at])) as Array<
    Omit<ShownEntry, "content" | "callKeys"> & { content: string; callKeys: string }
  >;
  return rows.map((r) => ({ ...r, content: JSON.parse(r.content), callKeys: JSON.parse(r.callKeys) as string[] }));
}

/**
 * The purpose of each call a memory's build made (from its ledger rows, cache hits included), by cache
 * key: the inspector labels an entry's links with what each call did ("record", "global-summary").
 */
export function callPurposes(db: Db, versionId: number): Record<string, string> {
  const rows = db.$client
    .prepare("select distinct cache_key as key, purpose from llm_calls where memory_version_id = ? and cache_key is not null")
    .all(versionId) as Array<{ key: string; purpose: string }>;
  return Object.fromEntries(rows.map((r) => [r.key, r.purpose]));
}
