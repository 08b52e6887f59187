/**
 * Read model of the browse pages: data sets, a data set's users (sorted, filtered, paginated in
 * SQL), one user's profile and timeline, one sample in full. Each is a handful of indexed queries,
 * never one per row, so a user with 1,000+ logs renders fast.
 */
import { and, asc, count, desc, eq, inArray, or, sql, type SQL } from "drizzle-orm";
import { datasets, palCandidates, palLogs, palRequirementTypes, palSamples, palTopics, palTurns, palUsers } from "@/db/schema";
import type { Queryable } from "../writer";
import { containsText, pageWindow, type Paged } from "@/lib/paging";

export type DatasetListItem = {
  id: number;
  name: string;
  /** A kind id of lib/datasets/kinds. */
  kind: string;
  language: string | null;
  source: string | null;
  stats: Record<string, number> | null;
  createdAt: number;
};

/** Every data set, both kinds, newest first. */
export function listDatasets(db: Queryable): DatasetListItem[] {
  return db
    .select({
      id: datasets.id,
      name: datasets.name,
      kind: datasets.kind,
      language: datasets.language,
      source: datasets.source,
      stats: datasets.stats,
      createdAt: datasets.createdAt,
    })
    .from(datasets)
    .orderBy(desc(datasets.createdAt), desc(datasets.id))
    .all();
}

/** `span` sorts by the start of the user's time span (then its end). */
export const PAL_USER_SORTS = ["userKey", "name", "sessions", "logs", "turns", "topics", "firstAt", "lastAt", "span"] as const;
export type PalUserSort = (typeof PAL_USER_SORTS)[number];

export type PalUserRow = {
  userKey: string;
  name: string | null;
  sessions: number;
  logs: number;
  turns: number;
  topics: number;
  /** Time of the user's first log (else first dialogue), epoch ms (UTC reading of the data's local times). */
  firstAt: number | null;
  /** Time of the user's last dialogue. */
  lastAt: number | null;
};

export type ListPalUsersOptions = {
  sort?: PalUserSort;
  dir?: "asc" | "desc";
  /** Substring of the user id or name (case-insensitive). */
  filter?: string;
  /** 1-based. */
  page?: number;
  pageSize?: number;
};

/** A data set's users with their activity counts, sorted, filtered and paginated by SQLite. */
export function listPalUsers(db: Queryable, datasetId: number, opts: ListPalUsersOptions = {}): Paged<PalUserRow> {
  const { page, pageSize, offset } = pageWindow(opts.page, opts.pageSize, { maxSize: 1000 });
  let where: SQL | undefined = eq(palUsers.datasetId, datasetId);
  const f = opts.filter?.trim();
  if (f) where = and(where, or(containsText(palUsers.userKey, f), containsText(palUsers.name, f)));
  // The first log of the user's first sample: logs are chronological, so that is the earliest one.
  const firstLogAt = sql<number | null>`(select l.at from ${palLogs} l where l.sample_id =
    (select s2.id from ${palSamples} s2 where s2.user_id = ${palUsers.id} order by s2.seq limit 1) order by l.position limit 1)`;
  const cols = {
    userKey: palUsers.userKey,
    name: palUsers.name,
    sessions: sql<number>`count(${palSamples.id})`,
    logs: sql<number>`coalesce(sum(${palSamples.logCount}), 0)`,
    turns: sql<number>`coalesce(sum(${palSamples.turnCount}), 0)`,
    topics: sql<number>`coalesce(sum(${palSamples.topicCount}), 0)`,
    firstAt: sql<number | null>`coalesce(${firstLogAt}, min(${palSamples.dialogueAt}))`,
    lastAt: sql<number | null>`max(${palSamples.dialogueAt})`,
  };
  const sortKey: PalUserSort = PAL_USER_SORTS.includes(opts.sort as PalUserSort) ? (opts.sort as PalUserSort) : "userKey";
  const dir = opts.dir === "desc" ? desc : asc;
  const rows = db
    .select(cols)
    .from(palUsers)
    .leftJoin(palSamples, eq(palSamples.userId, palUsers.id))
    .where(where)
    .groupBy(palUsers.id)
    .orderBy(...(sortKey === "span" ? [dir(cols.firstAt), dir(cols.lastAt)] : [dir(cols[sortKey])]), asc(palUsers.position))
    .limit(pageSize)
    .offset(offset)
    .all();
  const total = db.select({ n: count() }).from(palUsers).where(where).get()?.n ?? 0;
  return { rows, total, page, pageSize };
}

export type PalUserDetail = {
  userKey: string;
  name: string | null;
  position: number;
  background: Record<string, unknown> | null;
  profileRaw: Record<string, unknown> | null;
  requirementTypes: Array<{
    aspect: string;
    typeKey: string;
    requirementType: string | null;
    preferencePos: string[] | null;
    preferenceNeg: string[] | null;
  }>;
  /** The user's samples (sessions): history then query, in time order. */
  timeline: Array<{
    sampleKey: string;
    split: "history" | "query";
    position: number;
    seq: number;
    dialogueTimestamp: string;
    dialogueAt: number | null;
    logCount: number;
    turnCount: number;
    topicCount: number;
    hasSituation: boolean;
    topics: Array<{ topicKey: string; userQuery: string; requirementTypeKey: string | null }>;
  }>;
  /** Inferred log types over all the user's logs ("unknown" for logs without one). */
  logTypes: Record<string, number>;
  /** The user's time span, as the users list computes it: the first log (else session) to the last session. */
  firstAt: number | null;
  lastAt: number | null;
};

/** One user's profile and timeline (no logs or turns: those are per sample). */
export function getPalUser(db: Queryable, datasetId: number, userKey: string): PalUserDetail | null {
  const u = db
    .select()
    .from(palUsers)
    .where(and(eq(palUsers.datasetId, datasetId), eq(palUsers.userKey, userKey)))
    .get();
  if (!u) return null;
  const requirementTypes = db
    .select({
      aspect: palRequirementTypes.aspect,
      typeKey: palRequirementTypes.typeKey,
      requirementType: palRequirementTypes.requirementType,
      preferencePos: palRequirementTypes.preferencePos,
      preferenceNeg: palRequirementTypes.preferenceNeg,
    })
    .from(palRequirementTypes)
    .where(eq(palRequirementTypes.userId, u.id))
    .orderBy(asc(palRequirementTypes.id))
    .all();
  const samples = db
    .select({
      id: palSamples.id,
      sampleKey: palSamples.sampleKey,
      split: palSamples.split,
      position: palSamples.position,
      seq: palSamples.seq,
      dialogueTimestamp: palSamples.dialogueTimestamp,
      dialogueAt: palSamples.dialogueAt,
      logCount: palSamples.logCount,
      turnCount: palSamples.turnCount,
      topicCount: palSamples.topicCount,
      hasSituation: sql<number>`${palSamples.situation} is not null`,
    })
    .from(palSamples)
    .where(eq(palSamples.userId, u.id))
    .orderBy(asc(palSamples.seq))
    .all();
  const ids = samples.map((s) => s.id);
  const topics = ids.length
    ? db
        .select({
          sampleId: palTopics.sampleId,
          topicKey: palTopics.topicKey,
          userQuery: palTopics.userQuery,
          requirementTypeKey: palTopics.requirementTypeKey,
        })
        .from(palTopics)
        .where(inArray(palTopics.sampleId, ids))
        .orderBy(asc(palTopics.sampleId), asc(palTopics.position))
        .all()
    : [];
  const topicsBySample = new Map<number, PalUserDetail["timeline"][number]["topics"]>();
  for (const t of topics) {
    let list = topicsBySample.get(t.sampleId);
    if (!list) topicsBySample.set(t.sampleId, (list = []));
    list.push({ topicKey: t.topicKey, userQuery: t.userQuery, requirementTypeKey: t.requirementTypeKey });
  }
  const logTypes: Record<string, number> = {};
  if (ids.length) {
    for (const r of db
      .select({ type: palLogs.logType, n: count() })
      .from(palLogs)
      .where(inArray(palLogs.sampleId, ids))
      .groupBy(palLogs.logType)
      .all()) {
      logTypes[r.type ?? "unknown"] = r.n;
    }
  }
  return {
    userKey: u.userKey,
    name: u.name,
    position: u.position,
    background: u.background,
    profileRaw: u.profileRaw,
    requirementTypes,
    timeline: samples.map(({ id, hasSituation, ...s }) => ({
      ...s,
      hasSituation: Boolean(hasSituation),
      topics: topicsBySample.get(id) ?? [],
    })),
    logTypes,
    ...palUserSpan(db, u.id),
  };
}

/**
 * One user's time span with the list's rule (listPalUsers: firstAt, lastAt): from the first log of the
 * first session (logs come before their session's dialogue), else the first dialogue, to the last dialogue.
 */
export function palUserSpan(db: Queryable, userId: number): { firstAt: number | null; lastAt: number | null } {
  const firstLogAt = sql<number | null>`(select l.at from ${palLogs} l where l.sample_id =
    (select s2.id from ${palSamples} s2 where s2.user_id = ${userId} order by s2.seq limit 1) order by l.position limit 1)`;
  const r = db
    .select({
      firstAt: sql<number | null>`coalesce(${firstLogAt}, min(${palSamples.dialogueAt}))`,
      lastAt: sql<number | null>`max(${palSamples.dialogueAt})`,
    })
    .from(palSamples)
    .where(eq(palSamples.userId, userId))
    .get();
  return { firstAt: r?.firstAt ?? null, lastAt: r?.lastAt ?? null };
}

export type PalSampleDetail = {
  userKey: string;
  userName: string | null;
  sampleKey: string;
  split: "history" | "query";
  position: number;
  seq: number;
  dialogueTimestamp: string;
  dialogueAt: number | null;
  situation: Record<string, unknown> | null;
  prevSampleKey: string | null;
  nextSampleKey: string | null;
  logs: Array<{ position: number; timestamp: string; at: number | null; logType: string | null; content: string }>;
  turns: Array<{
    turnKey: string;
    position: number;
    topicIndex: number | null;
    userAction: string;
    userActionCode: string | null;
    userContent: string;
    assistantAction: string;
    assistantActionCode: string | null;
    assistantContent: string;
  }>;
  topics: Array<{
    topicKey: string;
    position: number;
    userQuery: string;
    implicitNeeds: string[];
    requirement: string;
    solutionPos: string[];
    solutionNeg: string[];
    requirementTypeKey: string | null;
    /** The linked requirement type of the user (requirement.json / preference.json), when imported. */
    requirementType: {
      aspect: string;
      requirementType: string | null;
      preferencePos: string[] | null;
      preferenceNeg: string[] | null;
    } | null;
    framework: Record<string, unknown> | null;
    solutionPreference: Record<string, unknown> | null;
    dialogueTemplate: Record<string, unknown> | null;
    candidates: Array<{ position: number; solution: string; feedback: "pos" | "neg" | "neu" }>;
  }>;
};

/** One sample in full: situation, logs with types, turns with actions and topics, topics with candidates. */
export function getPalSample(db: Queryable, datasetId: number, userKey: string, sampleKey: string): PalSampleDetail | null {
  const s = db
    .select({ sample: palSamples, userName: palUsers.name })
    .from(palSamples)
    .innerJoin(palUsers, eq(palSamples.userId, palUsers.id))
    .where(and(eq(palUsers.datasetId, datasetId), eq(palUsers.userKey, userKey), eq(palSamples.sampleKey, sampleKey)))
    .get();
  if (!s) return null;
  const x = s.sample;
  const neighbour = (seq: number) =>
    db
      .select({ k: palSamples.sampleKey })
      .from(palSamples)
      .where(and(eq(palSamples.userId, x.userId), eq(palSamples.seq, seq)))
      .get()?.k ?? null;
  const logs = db
    .select({
      position: palLogs.position,
      timestamp: palLogs.timestamp,
      at: palLogs.at,
      logType: palLogs.logType,
      content: palLogs.content,
    })
    .from(palLogs)
    .where(eq(palLogs.sampleId, x.id))
    .orderBy(asc(palLogs.position))
    .all();
  const turns = db
    .select({
      turnKey: palTurns.turnKey,
      position: palTurns.position,
      topicIndex: palTurns.topicIndex,
      userAction: palTurns.userAction,
      userActionCode: palTurns.userActionCode,
      userContent: palTurns.userContent,
      assistantAction: palTurns.assistantAction,
      assistantActionCode: palTurns.assistantActionCode,
      assistantContent: palTurns.assistantContent,
    })
    .from(palTurns)
    .where(eq(palTurns.sampleId, x.id))
    .orderBy(asc(palTurns.position))
    .all();
  const topics = db
    .select({
      topic: palTopics,
      rtAspect: palRequirementTypes.aspect,
      rtType: palRequirementTypes.requirementType,
      rtPos: palRequirementTypes.preferencePos,
      rtNeg: palRequirementTypes.preferenceNeg,
    })
    .from(palTopics)
    .leftJoin(
      palRequirementTypes,
      and(eq(palRequirementTypes.userId, x.userId), eq(palRequirementTypes.typeKey, palTopics.requirementTypeKey)),
    )
    .where(eq(palTopics.sampleId, x.id))
    .orderBy(asc(palTopics.position))
    .all();
  const candidates = topics.length
    ? db
        .select({
          topicId: palCandidates.topicId,
          position: palCandidates.position,
          solution: palCandidates.solution,
          feedback: palCandidates.feedback,
        })
        .from(palCandidates)
        .where(
          inArray(
            palCandidates.topicId,
            topics.map((t) => t.topic.id),
          ),
        )
        .orderBy(asc(palCandidates.topicId), asc(palCandidates.position))
        .all()
    : [];
  return {
    userKey,
    userName: s.userName,
    sampleKey: x.sampleKey,
    split: x.split,
    position: x.position,
    seq: x.seq,
    dialogueTimestamp: x.dialogueTimestamp,
    dialogueAt: x.dialogueAt,
    situation: x.situation,
    prevSampleKey: x.seq > 0 ? neighbour(x.seq - 1) : null,
    nextSampleKey: neighbour(x.seq + 1),
    logs,
    turns,
    topics: topics.map(({ topic: t, rtAspect, rtType, rtPos, rtNeg }) => ({
      topicKey: t.topicKey,
      position: t.position,
      userQuery: t.userQuery,
      implicitNeeds: t.implicitNeeds,
      requirement: t.requirement,
      solutionPos: t.solutionPos,
      solutionNeg: t.solutionNeg,
      requirementTypeKey: t.requirementTypeKey,
      requirementType: rtAspect === null ? null : { aspect: rtAspect, requirementType: rtType, preferencePos: rtPos, preferenceNeg: rtNeg },
      framework: t.framework,
      solutionPreference: t.solutionPreference,
      dialogueTemplate: t.dialogueTemplate,
      candidates: candidates.filter((c) => c.topicId === t.id).map(({ topicId: _, ...c }) => c),
    })),
  };
}
