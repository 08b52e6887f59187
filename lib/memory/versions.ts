import { and, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { memorySteps, memoryVersions, memoryEntries, type MemoryStatus } from "@/db/schema";
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
  return db.transaction(
    (tx) => {
      const old = tx
        .select()
        .from(memorySteps)
        .where(and(eq(memorySteps.versionId, versionId), eq(memorySteps.seq, seq)))
        .get();
      if (old) {
        if (old.status === "complete") return old;
        tx.update(memoryEntries).set({ validToSeq: null, expiredByStepId: null }).where(eq(memoryEntries.expiredByStepId, old.id)).run();
        tx.delete(memoryEntries).where(eq(memoryEntries.stepId, old.id)).run();
        tx.update(memorySteps)
          .set({ status: "building", error: null, sessionKey, startedAt: Date.now(), finishedAt: null })
          .where(eq(memorySteps.id, old.id))
          .run();
        return { ...old, status: "building" as const, error: null, sessionKey };
      }
      return tx.insert(memorySteps).values({ versionId, seq, sessionKey }).returning().get();
      // Immediate: it reads, then writes. A deferred transaction whose read is overtaken by another
      // process's commit cannot take the write lock and fails at once ("database is locked").
    },
    { behavior: "immediate" },
  );
}

export function finishStep(db: Db, stepId: number, status: "complete" | "failed", error: string | null = null): void {
  db.update(memorySteps).set({ status, error, finishedAt: Date.now() }).where(eq(memorySteps.id, stepId)).run();
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
