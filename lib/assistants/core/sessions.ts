import { and, asc, eq, inArray } from "drizzle-orm";
import type { Db } from "@/db/client";
import { stmt } from "@/db/statements";
import { cmThreads, datasets, hcDialogues, hcTurns, hcUsers, palSamples, palUsers } from "@/db/schema";
import { loadTimeline, threadInfo, userSide } from "@/lib/datasets/convmem/thread";
import { pairTurns } from "@/lib/datasets/convmem/pairing";
import { InvalidInputError, NotFoundError } from "@/lib/errors";
import type { DatasetKind, Language, Session } from "./types";
import { groupBy } from "@/lib/group-by";

export type { AssistantActionCode } from "./types";

export type DatasetRef = { id: number; name: string; kind: DatasetKind; language: Language };

export function datasetByName(db: Db, name: string): DatasetRef {
  const d = db.select().from(datasets).where(eq(datasets.name, name)).get();
  if (!d) throw new NotFoundError(`no data set named "${name}" (see pal stats or the Datasets page)`);
  return { id: d.id, name: d.name, kind: d.kind as DatasetKind, language: d.language === "zh" ? "zh" : "en" };
}

export function datasetById(db: Db, id: number): DatasetRef {
  const d = db.select().from(datasets).where(eq(datasets.id, id)).get();
  if (!d) throw new NotFoundError(`no data set with id ${id}`);
  return { id: d.id, name: d.name, kind: d.kind as DatasetKind, language: d.language === "zh" ? "zh" : "en" };
}

/** The user ids of a data set, in file order. */
export function listUserKeys(db: Db, ds: DatasetRef): string[] {
  // LoCoMo and LongMemEval: a "user" is a memory timeline (a conversation, or a question's haystack).
  if (ds.kind === "locomo" || ds.kind === "longmemeval")
    return db
      .select({ k: cmThreads.threadKey })
      .from(cmThreads)
      .where(eq(cmThreads.datasetId, ds.id))
      .orderBy(asc(cmThreads.position))
      .all()
      .map((r) => r.k);
  const t = ds.kind === "palset" ? palUsers : hcUsers;
  return db
    .select({ k: t.userKey })
    .from(t)
    .where(eq(t.datasetId, ds.id))
    .orderBy(asc(t.position))
    .all()
    .map((r) => r.k);
}

export function resolveUsers(db: Db, ds: DatasetRef, wanted?: string[]): string[] {
  const all = listUserKeys(db, ds);
  if (!wanted?.length) return all;
  const known = new Set(all);
  const unknown = wanted.filter((u) => !known.has(u));
  if (unknown.length) {
    // Name a few, not all: the error goes back to whoever sent the list, whatever its size.
    const shown = unknown.slice(0, 5).map((u) => JSON.stringify(u.length > 40 ? `${u.slice(0, 40)}…` : u));
    const more = unknown.length > shown.length ? ` and ${unknown.length - shown.length} more` : "";
    throw new InvalidInputError(`data set "${ds.name}" has no user ${shown.join(", ")}${more}`);
  }
  return wanted;
}

/**
 * A user's sessions in time order, as memory methods may see them. Only logs and dialogue turns
 * are read: PAL-Set topics and HiCUPID metadata/QA are never loaded here.
 */
export function loadSessions(db: Db, ds: DatasetRef, userKey: string): Session[] {
  if (ds.kind === "locomo" || ds.kind === "longmemeval") return loadConvSessions(db, ds.id, userKey);
  return ds.kind === "palset" ? loadPalSessions(db, ds.id, userKey) : loadHcSessions(db, ds.id, userKey);
}

function loadPalSessions(db: Db, datasetId: number, userKey: string): Session[] {
  const user = db
    .select({ id: palUsers.id })
    .from(palUsers)
    .where(and(eq(palUsers.datasetId, datasetId), eq(palUsers.userKey, userKey)))
    .get();
  if (!user) throw new NotFoundError(`no user "${userKey}" in this data set`);
  const samples = db
    .select({
      id: palSamples.id,
      key: palSamples.sampleKey,
      split: palSamples.split,
      seq: palSamples.seq,
      ts: palSamples.dialogueTimestamp,
    })
    .from(palSamples)
    .where(eq(palSamples.userId, user.id))
    .orderBy(asc(palSamples.seq))
    .all();
  // Hand-written SQL: an experiment loads each user's whole timeline, and drizzle's row mapping cost
  // more than the queries.
  const logs = stmt(
    db,
    `SELECT l.sample_id AS s, l.timestamp, l.content FROM pal_logs l JOIN pal_samples p ON p.id = l.sample_id
     WHERE p.user_id = ? ORDER BY l.sample_id, l.position`,
  ).all(user.id) as Array<{ s: number; timestamp: string; content: string }>;
  const turns = stmt(
    db,
    `SELECT t.sample_id AS sampleId, t.user_content AS userContent, t.assistant_content AS assistantContent, t.user_action AS userAction,
     t.user_action_code AS userActionCode, t.assistant_action AS assistantAction, t.assistant_action_code AS assistantActionCode
     FROM pal_turns t JOIN pal_samples p ON p.id = t.sample_id WHERE p.user_id = ? ORDER BY t.sample_id, t.position`,
  ).all(user.id) as Array<{
    sampleId: number;
    userContent: string;
    assistantContent: string;
    userAction: string;
    userActionCode: string | null;
    assistantAction: string;
    assistantActionCode: string | null;
  }>;
  const logsOf = groupBy(logs, (l) => l.s);
  const turnsOf = groupBy(turns, (t) => t.sampleId);
  return samples.map((s, i) => ({
    seq: i,
    key: s.key,
    split: s.split,
    timestamp: s.ts,
    logs: (logsOf.get(s.id) ?? []).map(({ timestamp, content }) => ({ timestamp, content })),
    dialogue: (turnsOf.get(s.id) ?? []).map((t) => ({
      user: t.userContent,
      assistant: t.assistantContent,
      userAction: t.userAction,
      userActionCode: t.userActionCode,
      assistantAction: t.assistantAction,
      assistantActionCode: t.assistantActionCode,
    })),
  }));
}

function loadHcSessions(db: Db, datasetId: number, userKey: string): Session[] {
  const user = db
    .select({ id: hcUsers.id })
    .from(hcUsers)
    .where(and(eq(hcUsers.datasetId, datasetId), eq(hcUsers.userKey, userKey)))
    .get();
  if (!user) throw new NotFoundError(`no user "${userKey}" in this data set`);
  // Only keys, split and order: a dialogue's metadata is judge material.
  const dialogues = db
    .select({ id: hcDialogues.id, key: hcDialogues.dialogueKey, split: hcDialogues.split })
    .from(hcDialogues)
    .where(eq(hcDialogues.userId, user.id))
    .orderBy(asc(hcDialogues.position), asc(hcDialogues.id))
    .all();
  const ids = dialogues.map((d) => d.id);
  const turns = ids.length
    ? db
        .select({ d: hcTurns.dialogueId, user: hcTurns.user, assistant: hcTurns.assistant })
        .from(hcTurns)
        .where(inArray(hcTurns.dialogueId, ids))
        .orderBy(asc(hcTurns.dialogueId), asc(hcTurns.position))
        .all()
    : [];
  const turnsOf = groupBy(turns, (t) => t.d);
  return dialogues.map((d, i) => ({
    seq: i,
    key: d.key,
    split: d.split,
    timestamp: null,
    logs: [],
    dialogue: (turnsOf.get(d.id) ?? []).map((t) => ({
      user: t.user,
      assistant: t.assistant,
      userAction: null,
      userActionCode: null,
      assistantAction: null,
      assistantActionCode: null,
    })),
  }));
}

/**
 * LoCoMo / LongMemEval: the thread's sessions in timeline order, dated, as user/assistant pairs
 * (lib/datasets/convmem/pairing.ts says how two LoCoMo speakers map onto them). QA, evidence and
 * has_answer labels are never part of them.
 */
function loadConvSessions(db: Db, datasetId: number, threadKey: string): Session[] {
  const t = threadInfo(db, datasetId, threadKey);
  const side = userSide(t);
  return loadTimeline(db, t.id).map((s) => ({
    seq: s.seq,
    key: s.label,
    split: "history",
    timestamp: s.date,
    logs: [],
    dialogue: pairTurns(s.turns, side, t.speakerA !== null).map((p) => ({
      user: p.user,
      assistant: p.assistant,
      userAction: null,
      userActionCode: null,
      assistantAction: null,
      assistantActionCode: null,
    })),
  }));
}
