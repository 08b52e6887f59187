/**
 * "Build memory" from the app: one method over one user or a whole data set, run in the background
 * of the server process (the request that starts it returns at once). Progress is written to
 * `memory_builds` as sessions complete, so any page can poll it and closing the page does not stop
 * the build. The work itself is `buildMemory` (resumable), the same as `pal memory build`.
 */
import { and, asc, desc, eq, gt } from "drizzle-orm";
import type { Db } from "@/db/client";
import { datasets, memoryBuilds, type MemoryBuildStatus } from "@/db/schema";
import { ConflictError, NotFoundError } from "@/lib/errors";
import { ModelClient } from "@/lib/llm/client";
import { SpendGuard } from "@/lib/llm/spend-guard";
import { pidAlive } from "@/lib/lease-holder";
import { buildMemory, type BuildProgress } from "./build";
import { findAssistant } from "../registry";
import { datasetById, loadSessions, resolveUsers } from "./sessions";

export type MemoryBuild = {
  id: number;
  datasetId: number;
  datasetName: string;
  method: string;
  users: string[];
  /** "interrupted": still marked running, but the server process that ran it is gone. */
  status: MemoryBuildStatus | "interrupted";
  sessionsDone: number;
  sessionsTotal: number;
  current: string | null;
  error: string | null;
  createdAt: number;
  finishedAt: number | null;
};

export type StartBuildRequest = { datasetId: number; method: string; users?: string[]; createdBy?: number | null };

/**
 * Starts a background build and returns its id at once. Bad input (unknown data set, method or
 * user) is refused before anything is written. The same (data set, method, users) still running in
 * this server is refused with a ConflictError naming it (two builders would race on the same steps).
 */
export function startMemoryBuild(db: Db, req: StartBuildRequest, makeClient: () => ModelClient = () => ModelClient.create(db)): number {
  const dataset = datasetById(db, req.datasetId);
  const method = findAssistant(db, req.method).id;
  const users = resolveUsers(db, dataset, req.users?.length ? req.users : undefined);
  const same = db
    .select({ id: memoryBuilds.id, users: memoryBuilds.users })
    .from(memoryBuilds)
    .where(
      and(
        eq(memoryBuilds.datasetId, dataset.id),
        eq(memoryBuilds.method, method),
        eq(memoryBuilds.status, "running"),
        eq(memoryBuilds.pid, process.pid),
      ),
    )
    .all()
    .find((r) => r.users.some((u) => users.includes(u)));
  if (same) throw new ConflictError(`memory build ${same.id} is already building ${method} for some of these users; wait for it to finish`);
  const total = users.reduce((n, u) => n + loadSessions(db, dataset, u).length, 0);
  const row = db
    .insert(memoryBuilds)
    .values({
      datasetId: dataset.id,
      method,
      users,
      status: "running",
      sessionsTotal: total,
      pid: process.pid,
      createdBy: req.createdBy ?? null,
    })
    .returning({ id: memoryBuilds.id })
    .get();
  runBuild(db, row.id, dataset, method, users, makeClient());
  return row.id;
}

/** Runs the build of row `id` in the background, writing progress and the end (or failure) on the row. */
function runBuild(db: Db, id: number, dataset: ReturnType<typeof datasetById>, method: string, users: string[], llm: ModelClient): void {
  const perUser = new Map<string, BuildProgress>();
  const onProgress = (p: BuildProgress) => {
    perUser.set(p.userKey, p);
    const done = [...perUser.values()].reduce((n, x) => n + x.done, 0);
    db.update(memoryBuilds)
      .set({
        sessionsDone: done,
        current:
          p.status === "waiting"
            ? `${p.userKey}: waiting for another process building this memory`
            : p.sessionKey
              ? `${p.userKey}/${p.sessionKey}`
              : null,
      })
      .where(eq(memoryBuilds.id, id))
      .run();
  };
  // Spending safety: the build pauses itself when its attempts keep failing (lib/llm/spend-guard.ts);
  // starting the same build again resumes it (complete sessions are skipped).
  const guard = new SpendGuard({ onTrip: () => {} });
  const paused = () => `paused by its spend guard: ${guard.reason}; fix the cause, then build again to resume`;
  // Not awaited: the build outlives the request. Its end (or failure) is recorded on the row.
  void buildMemory(db, { dataset, method, users, llm: llm.withGuard(guard), onProgress })
    .then((results) => {
      const failed = results.filter((r) => r.status === "failed");
      const done = results.reduce((n, r) => n + (perUser.get(r.userKey)?.done ?? 0), 0);
      if (guard.reason !== null) return finish(db, id, "paused", paused(), done);
      finish(db, id, failed.length ? "failed" : "complete", failed.map((r) => `${r.userKey}: ${r.error}`).join("; ") || null, done);
    })
    .catch((e: unknown) =>
      guard.reason !== null ? finish(db, id, "paused", paused()) : finish(db, id, "failed", e instanceof Error ? e.message : String(e)),
    );
}

/**
 * At server start: builds still `running` under a server process that is gone (killed, crashed) are
 * taken over by this process and run again. `buildMemory` resumes: complete sessions are kept, a
 * half-built one is rolled back and redone from the model cache, so nothing is paid twice.
 */
export function resumeInterruptedBuilds(db: Db, makeClient: () => ModelClient = () => ModelClient.create(db)): number[] {
  const rows = db
    .select({
      id: memoryBuilds.id,
      datasetId: memoryBuilds.datasetId,
      method: memoryBuilds.method,
      users: memoryBuilds.users,
      pid: memoryBuilds.pid,
    })
    .from(memoryBuilds)
    .where(eq(memoryBuilds.status, "running"))
    .all()
    .filter((r) => r.pid !== process.pid && (r.pid === null || !pidAlive(r.pid)));
  const resumed: number[] = [];
  for (const r of rows) {
    // A later build of the same work (started from the page's Resume, or again by hand) has taken it
    // over: resuming this one too would run the same work twice.
    const later = laterBuildOf(db, r);
    if (later !== null) {
      finish(db, r.id, "failed", `the server stopped during this build; build #${later} took over its work`);
      continue;
    }
    // Only the process that wins this update resumes the row (two servers starting at once).
    const won = db.$client
      .prepare("UPDATE memory_builds SET pid = ?, current = NULL WHERE id = ? AND status = 'running' AND pid IS ?")
      .run(process.pid, r.id, r.pid).changes;
    if (!won) continue;
    try {
      runBuild(db, r.id, datasetById(db, r.datasetId), r.method, r.users, makeClient());
      resumed.push(r.id);
    } catch (e) {
      finish(db, r.id, "failed", e instanceof Error ? e.message : String(e));
    }
  }
  return resumed;
}

type BuildWork = { datasetId: number; method: string; users: string[] };

/** Whether two builds do the same work: one data set, one method, the same users (in any order). */
export function sameBuildWork(a: BuildWork, b: BuildWork): boolean {
  const users = (x: BuildWork) => [...x.users].sort().join("\u0000");
  return a.datasetId === b.datasetId && a.method === b.method && users(a) === users(b);
}

/** The first build after `r` of the same work, if any. */
function laterBuildOf(db: Db, r: BuildWork & { id: number }): number | null {
  const next = db
    .select({ id: memoryBuilds.id, datasetId: memoryBuilds.datasetId, method: memoryBuilds.method, users: memoryBuilds.users })
    .from(memoryBuilds)
    .where(and(eq(memoryBuilds.datasetId, r.datasetId), eq(memoryBuilds.method, r.method), gt(memoryBuilds.id, r.id)))
    .orderBy(asc(memoryBuilds.id))
    .all()
    .find((x) => sameBuildWork(x, r));
  return next?.id ?? null;
}

function finish(db: Db, id: number, status: MemoryBuildStatus, error: string | null, done?: number) {
  db.update(memoryBuilds)
    .set({ status, error, finishedAt: Date.now(), current: null, ...(done !== undefined ? { sessionsDone: done } : {}) })
    .where(eq(memoryBuilds.id, id))
    .run();
}

function toBuild(r: typeof memoryBuilds.$inferSelect & { datasetName: string }): MemoryBuild {
  // A row running under another pid belongs to a server that died (one server per database).
  const status = r.status === "running" && r.pid !== process.pid ? "interrupted" : r.status;
  return {
    id: r.id,
    datasetId: r.datasetId,
    datasetName: r.datasetName,
    method: r.method,
    users: r.users,
    status,
    sessionsDone: r.sessionsDone,
    sessionsTotal: r.sessionsTotal,
    current: r.current,
    error: r.error,
    createdAt: r.createdAt,
    finishedAt: r.finishedAt,
  };
}

const selectBuild = (db: Db) =>
  db
    .select({
      id: memoryBuilds.id,
      datasetId: memoryBuilds.datasetId,
      method: memoryBuilds.method,
      users: memoryBuilds.users,
      status: memoryBuilds.status,
      sessionsTotal: memoryBuilds.sessionsTotal,
      sessionsDone: memoryBuilds.sessionsDone,
      current: memoryBuilds.current,
      error: memoryBuilds.error,
      pid: memoryBuilds.pid,
      createdBy: memoryBuilds.createdBy,
      createdAt: memoryBuilds.createdAt,
      finishedAt: memoryBuilds.finishedAt,
      datasetName: datasets.name,
    })
    .from(memoryBuilds)
    .innerJoin(datasets, eq(datasets.id, memoryBuilds.datasetId));

export function getMemoryBuild(db: Db, id: number): MemoryBuild {
  const r = selectBuild(db).where(eq(memoryBuilds.id, id)).get();
  if (!r) throw new NotFoundError(`no memory build ${id}`);
  return toBuild(r);
}

export function listMemoryBuilds(db: Db, limit = 20): MemoryBuild[] {
  return selectBuild(db).orderBy(desc(memoryBuilds.id)).limit(limit).all().map(toBuild);
}
