import pLimit, { type LimitFunction } from "p-limit";
import type { Db } from "@/db/client";
import type { ModelClient } from "@/lib/llm/client";
import { ModelCallError } from "@/lib/llm/errors";
import { beginStep, finishStep, getMemoryVersion, listSteps, openMemoryVersion, setVersionStatus } from "@/lib/memory/versions";
import { acquireVersion, builderId, claimVersionNow, type LeaseOptions, type VersionLease } from "@/lib/memory/lease";
import { MemoryWriter } from "@/lib/memory/store";
import { findAssistant } from "../registry";
import { withExternalRun } from "../external/run-scope";
import { loadSessions, type DatasetRef } from "./sessions";
import { checkRetrieverKind, memorySettings, parseOptions, retrieverFactory, type MethodSetup } from "./context";
import type { BuildContext, Session } from "./types";

export type BuildProgress = {
  userKey: string;
  done: number;
  total: number;
  sessionKey?: string;
  /** "waiting": another builder (process) holds this memory; this one waits for it. */
  status: "waiting" | "building" | "complete" | "failed";
};

export type UserBuildResult = {
  userKey: string;
  versionId: number;
  status: "complete" | "failed";
  /** Sessions built by this run (complete ones from earlier runs are skipped). */
  built: number;
  error: string | null;
  /** Entries stored for this memory, by kind (each entry once, whatever its validity span). */
  entries: Record<string, number>;
};

export type BuildOptions = MethodSetup & {
  dataset: DatasetRef;
  users: string[];
  llm: ModelClient;
  onProgress?: (p: BuildProgress) => void;
  /**
   * Users built at the same time (each user's sessions stay in order). Default 8: one user's session
   * rarely has enough independent calls to fill the model client's per-role slots, which all users
   * share, so more users side by side keep them busy without changing what is built.
   */
  parallelUsers?: number;
  /**
   * Sessions ahead of the one being built whose session-only calls (Assistant.prefetch) may start
   * early, below the priority of every call being built. Default 2.
   */
  lookahead?: number;
  /** The users' sessions when the caller holds them already (loadSessions otherwise). */
  sessionsOf?: (userKey: string) => Session[];
  /** The version lease's timing (lib/memory/lease.ts); tests shorten it. */
  lease?: LeaseOptions;
  /**
   * Told each user's memory version as soon as it is opened, before any call is made for it: an
   * experiment links the version so that what building it costs is counted even when it fails.
   */
  onVersion?: (userKey: string, versionId: number) => void;
};

/**
 * Builds (or completes) the memory of `method` for each user: walks the user's sessions in time
 * order, skips the steps already complete, rolls back and redoes a step a crash left half-built,
 * and marks the version complete when every session is built. A step whose model call fails is
 * recorded as failed (the version too) and the user's build stops there; the next run resumes it.
 */
export async function buildMemory(db: Db, o: BuildOptions): Promise<UserBuildResult[]> {
  const a = findAssistant(db, o.method);
  const options = parseOptions(a, o.options);
  const retrieverKind = checkRetrieverKind(o.retriever);
  const language = o.dataset.language;
  const settings = memorySettings(a, options, retrieverKind, language, o.llm, o.roleParams);
  const limit = pLimit(o.parallelUsers ?? 8);
  // An external method's keys are the build's (or, inside an experiment, the experiment's): refused once it returns.
  return withExternalRun({ id: `the ${o.method} memory build`, model: o.llm }, () =>
    Promise.all(o.users.map((userKey) => buildUser(db, o, limit, userKey, options, retrieverKind, settings))),
  );
}

/**
 * One user's memory, in one of the `parallelUsers` slots. One builder per version, across processes:
 * when another live builder holds it, this one gives its slot back and waits outside (so it does not
 * keep other users from building), then builds what is left, usually nothing, in a slot again.
 */
async function buildUser(
  db: Db,
  o: BuildOptions,
  limit: LimitFunction,
  userKey: string,
  options: unknown,
  retrieverKind: ReturnType<typeof checkRetrieverKind>,
  settings: Record<string, unknown>,
): Promise<UserBuildResult> {
  const a = findAssistant(db, o.method);
  const builder = builderId();
  const withLease = async (prepared: Prepared, lease: VersionLease) => {
    try {
      const version = getMemoryVersion(db, prepared.versionId)!;
      return await buildVersion(db, o, a, { userKey, sessions: prepared.sessions, version, options, retrieverKind, held: lease.held });
    } finally {
      lease.release();
    }
  };
  const first = await limit(async () => {
    const prepared = prepare(db, o, a, userKey, settings);
    const lease = claimVersionNow(db, prepared.versionId, builder, o.lease);
    return lease ? ({ built: true, result: await withLease(prepared, lease) } as const) : ({ built: false, prepared } as const);
  });
  if (first.built) return first.result;
  const p = first.prepared;
  const lease = await acquireVersion(db, p.versionId, builder, o.lease, () =>
    o.onProgress?.({ userKey, done: p.sessionsDone, total: p.sessions.length, status: "waiting" }),
  );
  return limit(() => withLease(p, lease));
}

type Prepared = { sessions: Session[]; versionId: number; sessionsDone: number };

/** The user's sessions and memory version (created when new). */
function prepare(
  db: Db,
  o: BuildOptions,
  a: ReturnType<typeof findAssistant>,
  userKey: string,
  settings: Record<string, unknown>,
): Prepared {
  const sessions = o.sessionsOf?.(userKey) ?? loadSessions(db, o.dataset, userKey);
  const opened = openMemoryVersion(db, {
    datasetId: o.dataset.id,
    userKey,
    method: a.id,
    settings,
    language: o.dataset.language,
    sessionsTotal: sessions.length,
  });
  o.onVersion?.(userKey, opened.id);
  return { sessions, versionId: opened.id, sessionsDone: opened.sessionsDone };
}

type VersionBuild = {
  userKey: string;
  sessions: Session[];
  /** The version as it stands once this builder holds its lease. */
  version: NonNullable<ReturnType<typeof getMemoryVersion>>;
  options: unknown;
  retrieverKind: ReturnType<typeof checkRetrieverKind>;
  /** Whether this builder still holds the version's lease. */
  held: () => boolean;
};

async function buildVersion(db: Db, o: BuildOptions, a: ReturnType<typeof findAssistant>, v: VersionBuild): Promise<UserBuildResult> {
  const { userKey, sessions, version, options, retrieverKind, held } = v;
  const llm = o.llm.withOrigin({ memoryVersionId: version.id });
  const complete = new Set(
    listSteps(db, version.id)
      .filter((s) => s.status === "complete")
      .map((s) => s.seq),
  );
  let built = 0;
  let error: string | null = null;
  let lost = false;
  const report = (status: BuildProgress["status"], sessionKey?: string) =>
    o.onProgress?.({ userKey, done: complete.size, total: sessions.length, sessionKey, status });

  if (version.status !== "building" && complete.size < sessions.length) setVersionStatus(db, version.id, "building");
  // Priorities: session i's calls get the number of sessions left (the user with the longest chain
  // still to walk goes first when users share the model's slots); prefetches of later sessions sit
  // below every such call and are raised to it when their session's turn comes.
  const chainPriority = (i: number) => sessions.length - i;
  const buildId = Math.random().toString(36).slice(2, 10);
  const prefetchGroup = (i: number) => `memory:${version.id}:${buildId}:${i}`;
  const prefetched = new Set<number>();
  const prefetch = (i: number, priority: number) => {
    if (!a.prefetch || prefetched.has(i) || complete.has(sessions[i].seq)) return;
    prefetched.add(i);
    const pctx = buildContext(o, a, { llm: llm.prefetching(prefetchGroup(i), priority), options, retrieverKind, userKey });
    void a.prefetch({ ...pctx, seq: sessions[i].seq }, sessions[i]).catch(() => undefined);
  };
  const lookahead = o.lookahead ?? 2;
  for (const [i, session] of sessions.entries()) {
    if (complete.has(session.seq)) continue;
    if (!held()) {
      // This process stalled past its lease and another builder took the version over: it goes on from here.
      lost = true;
      error = `${session.key}: another builder took this memory over (this one stopped renewing its lease)`;
      break;
    }
    report("building", session.key);
    const step = beginStep(db, version.id, session.seq, session.key);
    try {
      llm.raiseGroup(prefetchGroup(i), chainPriority(i));
      prefetch(i, chainPriority(i));
      for (let j = i + 1; j <= Math.min(sessions.length - 1, i + lookahead); j++) prefetch(j, chainPriority(j) - sessions.length);
      const stepLlm = llm.withPriority(chainPriority(i));
      await buildSession(db, o, a, { llm: stepLlm, options, retrieverKind, userKey, versionId: version.id, stepId: step.id }, session);
      finishStep(db, step.id, "complete");
      complete.add(session.seq);
      built++;
    } catch (e) {
      // Expected failures (a model step that gave up) are recorded; anything else is a bug and
      // still leaves the step marked, so the next run redoes it.
      error = `${session.key}: ${e instanceof Error ? e.message : String(e)}`;
      finishStep(db, step.id, "failed", error);
      if (!(e instanceof ModelCallError)) {
        setVersionStatus(db, version.id, "failed", error);
        throw e;
      }
      break;
    }
  }
  // A build that stopped early does not pay for the later sessions' prefetches still waiting.
  for (const i of prefetched) if (!complete.has(sessions[i].seq)) llm.cancelGroup(prefetchGroup(i));
  const status = error ? "failed" : "complete";
  if (!lost) setVersionStatus(db, version.id, status, error);
  report(status);
  const entries = Object.fromEntries(
    (
      db.$client
        .prepare("select kind, count(*) as n from memory_entries where version_id = ? group by kind order by kind")
        .all(version.id) as Array<{
        kind: string;
        n: number;
      }>
    ).map((r) => [r.kind, r.n]),
  );
  return { userKey, versionId: version.id, status, built, error, entries };
}

type StepEnv = {
  llm: ModelClient;
  options: unknown;
  retrieverKind: ReturnType<typeof checkRetrieverKind>;
  userKey: string;
  versionId: number;
  stepId: number;
};

/** What every build call of a method sees, without the memory (a prefetch writes nothing). */
function buildContext(
  o: BuildOptions,
  a: ReturnType<typeof findAssistant>,
  env: Pick<StepEnv, "llm" | "options" | "retrieverKind" | "userKey">,
): Omit<BuildContext<unknown>, "memory" | "seq"> {
  return {
    llm: env.llm,
    options: env.options,
    language: o.dataset.language,
    datasetKind: o.dataset.kind,
    userKey: env.userKey,
    retrieverKind: env.retrieverKind,
    retriever: retrieverFactory(o, env.retrieverKind, o.dataset.language, env.llm, a.id),
  };
}

/** The two phases of one session (see lib/memory/README.md): logs at seq, dialogue at seq + 1. */
async function buildSession(db: Db, o: BuildOptions, a: ReturnType<typeof findAssistant>, env: StepEnv, session: Session): Promise<void> {
  const ctx = (at: number): BuildContext<unknown> => ({
    ...buildContext(o, a, env),
    memory: new MemoryWriter(db, env.versionId, at, env.stepId),
    seq: session.seq,
  });
  if (a.buildLogs && session.logs.length > 0) {
    const { dialogue: _dialogue, ...logsOnly } = session;
    void _dialogue;
    await a.buildLogs(ctx(session.seq), logsOnly);
  }
  if (a.buildDialogue) await a.buildDialogue(ctx(session.seq + 1), session);
}
