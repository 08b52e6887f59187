/**
 * PAL-Set export: the published JSON again, equal value for value (and key for key, in order) to
 * what was imported: modelled columns in the published order, `extra` merged back (extra.ts).
 * Written user by user, so a full data set never sits in memory as one string.
 */
import fs from "node:fs";
import { once } from "node:events";
import { and, asc, eq, inArray } from "drizzle-orm";
import type { Db } from "@/db/client";
import { palCandidates, palLogs, palSamples, palTopics, palTurns, palUsers } from "@/db/schema";
import { findDataset } from "../stats";
import { DatasetError } from "../types";
import { NotFoundError } from "@/lib/errors";
import { nestedExtra, restore } from "./extra";
import type { PalSet } from "./schema";
import type { Queryable } from "../writer";
import { groupBy } from "@/lib/group-by";

/** Each user of the data set (or the one asked for) as [user id, published object], in import order. */
export function* palsetUsers(db: Queryable, datasetId: number, userKey?: string): Generator<[string, Record<string, unknown>]> {
  const users = db
    .select({ id: palUsers.id, userKey: palUsers.userKey, extra: palUsers.extra })
    .from(palUsers)
    .where(
      userKey === undefined ? eq(palUsers.datasetId, datasetId) : and(eq(palUsers.datasetId, datasetId), eq(palUsers.userKey, userKey)),
    )
    .orderBy(asc(palUsers.position))
    .all();
  if (userKey !== undefined && users.length === 0) throw new NotFoundError(`no user "${userKey}" in this data set`);
  for (const u of users) yield [u.userKey, userObject(db, u.id, u.extra)];
}

/** The published object of a data set (or of one user: `{uid: {...}}`), for tests and downloads. */
export function palsetToJson(db: Queryable, datasetId: number, userKey?: string): PalSet {
  const out: Record<string, unknown> = {};
  for (const [k, v] of palsetUsers(db, datasetId, userKey)) out[k] = v;
  return out as PalSet;
}

/** One user's object from a handful of queries (samples, logs, turns, topics, candidates), never one per row. */
function userObject(db: Queryable, userId: number, extra: Record<string, unknown> | null): Record<string, unknown> {
  const samples = db.select().from(palSamples).where(eq(palSamples.userId, userId)).orderBy(asc(palSamples.seq)).all();
  const ids = samples.map((s) => s.id);
  const logs = groupBy(
    db.select().from(palLogs).where(inArray(palLogs.sampleId, ids)).orderBy(asc(palLogs.sampleId), asc(palLogs.position)).all(),
    (r) => r.sampleId,
  );
  const turns = groupBy(
    db.select().from(palTurns).where(inArray(palTurns.sampleId, ids)).orderBy(asc(palTurns.sampleId), asc(palTurns.position)).all(),
    (r) => r.sampleId,
  );
  const topicRows = db
    .select()
    .from(palTopics)
    .where(inArray(palTopics.sampleId, ids))
    .orderBy(asc(palTopics.sampleId), asc(palTopics.position))
    .all();
  const topics = groupBy(topicRows, (r) => r.sampleId);
  const candidates = groupBy(
    db
      .select()
      .from(palCandidates)
      .where(
        inArray(
          palCandidates.topicId,
          topicRows.map((t) => t.id),
        ),
      )
      .orderBy(asc(palCandidates.topicId), asc(palCandidates.position))
      .all(),
    (r) => r.topicId,
  );

  const split: Record<"history" | "query", unknown[]> = { history: [], query: [] };
  for (const s of samples) {
    const dialogue: Record<string, unknown> = {};
    for (const t of turns.get(s.id) ?? []) {
      dialogue[t.turnKey] = restore(
        {
          user: restore({ action: t.userAction, content: t.userContent }, nestedExtra(t.extra, "user")),
          assistant: restore({ action: t.assistantAction, content: t.assistantContent }, nestedExtra(t.extra, "assistant")),
        },
        t.extra,
      );
    }
    const topicObj: Record<string, unknown> = {};
    for (const t of topics.get(s.id) ?? []) {
      topicObj[t.topicKey] = restore(
        {
          user_query: t.userQuery,
          implicit_needs: t.implicitNeeds,
          requirement: t.requirement,
          solution: restore({ pos: t.solutionPos, neg: t.solutionNeg }, nestedExtra(t.extra, "solution")),
          candidate_solutions: (candidates.get(t.id) ?? []).map((c) => restore({ solution: c.solution, feedback: c.feedback }, c.extra)),
        },
        t.extra,
      );
    }
    split[s.split].push(
      restore(
        {
          sample_id: s.sampleKey,
          dialogue_timestamp: s.dialogueTimestamp,
          logs: (logs.get(s.id) ?? []).map((l) => restore({ timestamp: l.timestamp, content: l.content }, l.extra)),
          dialogue,
          topics: topicObj,
        },
        s.extra,
      ),
    );
  }
  return restore({ history: split.history, query: split.query }, extra);
}

/** The published layout: `json.dump(..., indent=4, ensure_ascii=False)`, one user at a time. */
export function* palsetJsonChunks(db: Queryable, datasetId: number, userKey?: string): Generator<string> {
  let first = true;
  for (const [k, v] of palsetUsers(db, datasetId, userKey)) {
    yield `${first ? "{" : ","}\n    ${JSON.stringify(k)}: ${JSON.stringify(v, null, 4).replace(/\n/g, "\n    ")}`;
    first = false;
  }
  yield first ? "{}\n" : "\n}\n";
}

/** `pal export palset`: the data set (or one user) as published JSON, to a file or stdout. */
export async function exportPalset(db: Db, opts: { dataset: string; user?: string; out?: string }): Promise<void> {
  const ds = findDataset(db, opts.dataset);
  if (ds.kind !== "palset") throw new DatasetError(`data set "${opts.dataset}" is a ${ds.kind} data set, not PAL-Set`);
  // Runs the first queries before opening the file, so a wrong --user leaves no empty file behind.
  const chunks = palsetJsonChunks(db, ds.id, opts.user);
  let next = chunks.next();
  const stream = opts.out ? fs.createWriteStream(opts.out) : process.stdout;
  try {
    for (; !next.done; next = chunks.next()) {
      if (!stream.write(next.value)) await once(stream, "drain");
    }
  } finally {
    if (opts.out) {
      (stream as fs.WriteStream).end();
      await once(stream, "finish");
    }
  }
}
