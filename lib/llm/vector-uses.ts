/**
 * Which cached embedding vectors each run used (embedding_uses), so a bundle exports those and not
 * every vector of the model, other runs' included (issue 40). A job's lookups count for its
 * experiment ("experiment:<id>"), a memory build's for its version ("memory:<id>"); judge runs of a
 * campaign are never bundled and record nothing.
 *
 * Cheap on the hot path: a retrieval embeds the same texts for every answer, found by their text
 * without hashing (cache.ts vectorsByText), so the key of each vector is remembered beside the shared
 * array (noteVectorKey, weakly) and each scope remembers (weakly) the arrays it recorded; only a vector new to the scope
 * costs a write (INSERT OR IGNORE: another process, or an evicted scope, recording it again is harmless).
 */
import type { Db } from "@/db/client";
import { stmt, transact } from "@/db/statements";
import type { Origin } from "./ledger";

/** The cache key of a vector array as cache.ts handed it out. */
const keys = new WeakMap<number[], string>();

export function noteVectorKey(vector: number[], key: string): void {
  keys.set(vector, key);
}

/** Scopes whose recorded vectors this process remembers (the most recent; one evicted records again). */
const MAX_SCOPES = 64;
const recorded = new WeakMap<Db, Map<string, WeakSet<number[]>>>();
/** A job's experiment, read once per job. */
const experimentOfJob = new WeakMap<Db, Map<number, number | null>>();

function scopeOf(db: Db, origin: Origin): string | null {
  if (origin.jobId !== undefined) {
    let m = experimentOfJob.get(db);
    if (!m) experimentOfJob.set(db, (m = new Map()));
    let e = m.get(origin.jobId);
    if (e === undefined) {
      e = (stmt(db, "SELECT experiment_id FROM jobs WHERE id = ?").pluck().get(origin.jobId) as number | undefined) ?? null;
      if (m.size > 100_000) m.clear();
      m.set(origin.jobId, e);
    }
    return e === null ? null : `experiment:${e}`;
  }
  if (origin.memoryVersionId !== undefined) return `memory:${origin.memoryVersionId}`;
  if (origin.experimentId !== undefined) return `experiment:${origin.experimentId}`;
  return null;
}

/** Records that the run of `origin` used `vectors` (as cache.ts returned them). */
export function recordVectorUses(db: Db, origin: Origin, vectors: readonly number[][]): void {
  const scope = scopeOf(db, origin);
  if (scope === null) return;
  let scopes = recorded.get(db);
  if (!scopes) recorded.set(db, (scopes = new Map()));
  let seen = scopes.get(scope);
  if (!seen) {
    if (scopes.size >= MAX_SCOPES) scopes.delete(scopes.keys().next().value!);
    scopes.set(scope, (seen = new WeakSet()));
  }
  const fresh: string[] = [];
  for (const v of vectors) {
    if (seen.has(v)) continue;
    seen.add(v);
    const k = keys.get(v);
    if (k !== undefined) fresh.push(k);
  }
  if (!fresh.length) return;
  const ins = stmt(db, "INSERT OR IGNORE INTO embedding_uses (scope, key) VALUES (?, ?)");
  transact(db, () => {
    for (const k of fresh) ins.run(scope, k);
  });
}
