import { and, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { memorySteps, memoryVersions, type MemoryStatus } from "@/db/schema";
import { hashOf } from "@/lib/llm/hash";
import { stmt } from "@/db/statements";

export type MemoryVersion = typeof memoryVersions.$inferSelect;
export type MemoryStep = typeof memorySteps.$inferSelect;

export type MemoryIdentity = { datasetId: number; userKey: string; method: string; settings: Record<string, unknown> };

/** The key a memory is shared under: everything it was built from, hashed. */
export const settingsKeyOf = (settings: Record<string, unknown>): string => hashOf(settings);

export function findMemoryVersion(db: Db, id: Omit<MemoryIdentity, "settings"> & { settingsKey: string }): MemoryVersion | null {
  return (
    db
      .select()
      .from(memoryVersions)
      .where(
        and(
          eq(memoryVersions.datasetId, id.datasetId),
          eq(memoryVersions.userKey, id.userKey),
          eq(memoryVersions.method, id.method),
          eq(memoryVersions.settingsKey, id.settingsKey),
        ),
      )
      .get() ?? null
  );
}

/** The id of the version for this identity (hand-written SQL: an experiment looks it up for every item). */
export function findMemoryVersionId(db: Db, id: Omit<MemoryIdentity, "settings"> & { settingsKey: string }): number | null {
  const row = stmt(db, "SELECT id FROM memory_versions WHERE dataset_id = ? AND user_key = ? AND method = ? AND settings_key = ?").get(
    id.datasetId,
    id.userKey,
    id.method,
    id.settingsKey,
  ) as { id: number } | undefined;
  return row?.id ?? null;
}

/** The version for this identity, created (status building) when there is none yet. */
export function openMemoryVersion(db: Db, id: MemoryIdentity & { language: string; sessionsTotal: number }): MemoryVersion {
  const settingsKey = settingsKeyOf(id.settings);
  const found = findMemoryVersion(db, { ...id, settingsKey });
  if (found) {
    if (found.sessionsTotal !== id.sessionsTotal) {
      // The data set gained sessions: the memory is incomplete again and the builder goes on.
      db.update(memoryVersions)
        .set({ sessionsTotal: id.sessionsTotal, status: "building", updatedAt: Date.now() })
        .where(eq(memoryVersions.id, found.id))
        .run();
      return { ...found, sessionsTotal: id.sessionsTotal, status: "building" };
    }
    return found;
  }
  // Another process may open the same identity at the same moment: then its row is the one.
  const inserted = db
    .insert(memoryVersions)
    .values({
      datasetId: id.datasetId,
      userKey: id.userKey,
      method: id.method,
      settingsKey,
      settings: id.settings,
      language: id.language,
      sessionsTotal: id.sessionsTotal,
      updatedAt: Date.now(),
    })
    .onConflictDoNothing()
    .returning()
    .get();
  return inserted ?? findMemoryVersion(db, { ...id, settingsKey })!;
}

export function setVersionStatus(db: Db, versionId: number, status: MemoryStatus, error: string | null = null): void {
  const done = db.$client.prepare("select count(*) as n from memory_steps where version_id = ? and status = 'complete'").get(versionId) as {
    n: number;
  };
  db.update(memoryVersions)
    .set({ status, error, sessionsDone: done.n, updatedAt: Date.now() })
    .where(eq(memoryVersions.id, versionId))
    .run();
}

export function listSteps(db: Db, versionId: number): MemoryStep[] {
  return db.select().from(memorySteps).where(eq(memorySteps.versionId, versionId)).orderBy(memorySteps.seq).all();
}

/**
 * Starts (or restarts) the step for one session. A step left `building` or `failed` by an earlier
 * run is rolled back first, in one transaction: its entries are deleted and the entries it expired
 * become valid again, so the redo starts from exactly the state before that session.
 */
export function beginStep(db: Db, versionId: number, seq: number, sessionKey: string): MemoryStep {
  // Hand-written SQL: a build begins and finishes a step per session and method (issue 35's profile).
  // Immediate: it reads, then writes. A deferred transaction whose read is overtaken by another
  // process's commit cannot take the write lock and fails at once ("database is locked").
  return db.$client
    .transaction(() => {
      const old = stmt(db, `${STEP_SELECT} where version_id = ? and seq = ?`).get(versionId, seq) as StepRow | undefined;
      if (old) {
        if (old.status === "complete") return stepOf(old);
        stmt(db, "update memory_entries set valid_to_seq = null, expired_by_step_id = null where expired_by_step_id = ?").run(old.id);
        stmt(db, "delete from memory_entries where step_id = ?").run(old.id);
        const startedAt = Date.now();
        stmt(
          db,
          "update memory_steps set status = 'building', error = null, session_key = ?, created_at = ?, finished_at = null where id = ?",
        ).run(sessionKey, startedAt, old.id);
        return { ...stepOf(old), status: "building" as const, error: null, sessionKey, startedAt, finishedAt: null };
      }
      const row = stmt(db, `insert into memory_steps (version_id, seq, session_key) values (?, ?, ?) returning ${STEP_COLUMNS}`).get(
        versionId,
        seq,
        sessionKey,
      ) as StepRow;
      return stepOf(row);
    })
    .immediate();
}

const STEP_COLUMNS = "id, version_id, seq, session_key, status, error, created_at as started_at, finished_at";
const STEP_SELECT = `select ${STEP_COLUMNS} from memory_steps`;
type StepRow = {
  id: number;
  version_id: number;
  seq: number;
  session_key: string;
  status: MemoryStatus;
  error: string | null;
  started_at: number;
  finished_at: number | null;
};
const stepOf = (r: StepRow): MemoryStep => ({
  id: r.id,
  versionId: r.version_id,
  seq: r.seq,
  sessionKey: r.session_key,
  status: r.status,
  error: r.error,
  startedAt: r.started_at,
  finishedAt: r.finished_at,
});

export function finishStep(db: Db, stepId: number, status: "complete" | "failed", error: string | null = null): void {
  stmt(db, "update memory_steps set status = ?, error = ?, finished_at = ? where id = ?").run(status, error, Date.now(), stepId);
}

export type MemoryVersionRow = MemoryVersion & { datasetName: string; entries: number; calls: number };

/** Every memory version, newest first, with its data set's name and counts (the Memory page). */
export function listMemoryVersions(db: Db, limit = 500): MemoryVersionRow[] {
  return db.$client
    .prepare(
      `select v.id, v.dataset_id as datasetId, d.name as datasetName, v.user_key as userKey, v.method, v.settings_key as settingsKey,
              v.language, v.status, v.sessions_total as sessionsTotal, v.sessions_done as sessionsDone, v.error,
              v.created_at as createdAt, v.updated_at as updatedAt,
              (select count(*) from memory_entries e where e.version_id = v.id) as entries,
              (select count(*) from llm_calls c where c.memory_version_id = v.id) as calls
       from memory_versions v join datasets d on d.id = v.dataset_id
       order by v.id desc limit ?`,
    )
    .all(limit)
    .map((r) => ({ ...(r as MemoryVersionRow), settings: {} })) as MemoryVersionRow[];
}

export function getMemoryVersion(db: Db, id: number): MemoryVersion | null {
  return db.select().from(memoryVersions).where(eq(memoryVersions.id, id)).get() ?? null;
}
